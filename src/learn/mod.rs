//! The pipeline that makes Tarpon's evaluation: self-play games played by the engine
//! (`datagen`), stored as whole games (`games`, compact and crash-safe) or as position
//! records (`bulletformat`, what other trainers read; `convert` turns one into the other),
//! and the two learners that read them: the Texel tuner of the hand-crafted weights (`tune`) and the
//! NNUE trainer (`train`). `docs/nnue.md` tells how a network is made with them.
pub mod bulletformat;
pub mod convert;
pub mod datagen;
pub mod games;
pub mod genfens;
pub mod train;
pub mod tune;
