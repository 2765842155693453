//! The fuzz run's negative control (not in [`crate::TARGETS`]): a defect
//! libFuzzer must find within its bounded run, an index past the end behind
//! a four-byte key, or the suite's fuzzing would pass without searching.

pub fn run(data: &[u8]) {
    if data.len() >= 5 && &data[..4] == b"MIOP" {
        let table = [0u8; 4];
        let at = usize::from(data[4]) + table.len();
        std::hint::black_box(table[at]);
    }
}
