fn main() {
    std::process::exit(miopen_wrap::cli::run());
}
