fn main() -> std::process::ExitCode {
    recount::cli::main()
}
