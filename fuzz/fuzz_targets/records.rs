#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tarpon_fuzz::records(data));
