//! The pipeline that makes Tarpon's evaluation: self-play games played by the engine
//! (`datagen`), the position records they are stored as (`bulletformat`), and the two
//! learners that read them: the Texel tuner of the hand-crafted weights (`tune`) and the
//! NNUE trainer (`train`). `docs/nnue.md` tells how a network is made with them.
pub mod bulletformat;
pub mod datagen;
pub mod train;
pub mod tune;
