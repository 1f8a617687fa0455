/// mimalloc instead of the system allocator: the Go path allocates a
/// little per game (records, settlements, readings), and mimalloc's
/// thread-local heaps make that cheaper: parse and replay 11% faster,
/// scoring 6%, the dead-stone estimator 2%, backgammon unchanged, every
/// report the same bytes. Built without transparent huge pages
/// (`no_thp`): with them the 2-ply caches' growth faulted in 2 MiB pages
/// and 2-ply ran 4% slower, depending on the machine's memory state.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    recount::cli::main()
}
