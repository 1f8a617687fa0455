fn main() {
    std::process::exit(recount::cli::main());
}
