//! NNUE: an efficiently updatable neural-network evaluation (see [`network`] for the
//! architecture, quantisation and file format).

pub mod network;
