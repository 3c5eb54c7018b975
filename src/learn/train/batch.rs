//! One mini-batch on several threads: each thread takes a contiguous share of the batch
//! and accumulates the gradient into its own buffer (no locks, no sharing while it
//! works); the buffers are then summed in thread order, so a run with the same number
//! of threads gives the same numbers every time.
//!
//! A factorised network is first merged (each input's row plus its factor row,
//! [`Net::merge_factors_into`]) and the threads work on that: an active input then costs
//! one row in the forward and backward passes instead of two, and the gradient buffers
//! are the size of the network file's weights, not a fifth larger. The merged gradient
//! is folded back into the factorised one once per batch; merging and folding cost a few
//! additions per weight, where the passes cost hundreds per position.

use super::data::{self, Record};
use super::model::{Layout, Net, Objective, Scratch};

/// The bit of a batch entry that asks for the position's mirror image (see
/// [`data::features_of`]); the other bits are the record's index.
pub const MIRRORED: u32 = 1 << 31;

/// One thread's gradient buffer and working memory, kept from batch to batch.
struct Worker {
    grad: Vec<f32>,
    scratch: Scratch,
}

/// The threads' buffers, kept from batch to batch.
pub struct Workers {
    workers: Vec<Worker>,
    /// Factorised networks only: the merged network the passes run on, and the gradient
    /// folded back into the factorised layout.
    merged: Option<(Net, Vec<f32>)>,
}

/// `threads` workers for networks of this layout.
pub fn workers(layout: Layout, threads: usize) -> Workers {
    let passes = Layout {
        factorised: false,
        ..layout
    };
    Workers {
        workers: (0..threads.max(1))
            .map(|_| Worker {
                grad: vec![0.0; passes.parameter_count()],
                scratch: Scratch::new(passes),
            })
            .collect(),
        merged: layout.factorised.then(|| {
            let net = Net {
                layout: passes,
                params: Vec::new(),
            };
            (net, vec![0.0; layout.parameter_count()])
        }),
    }
}

/// The mean gradient of the loss over the positions `batch` (indices into `records`,
/// with [`MIRRORED`] set for those to be seen mirrored), returned with the summed loss.
pub fn gradient<'w>(
    net: &Net,
    records: &[Record],
    batch: &[u32],
    objective: Objective,
    workers: &'w mut Workers,
) -> (&'w [f32], f64) {
    let Workers { workers, merged } = workers;
    match merged {
        Some((merged, folded)) => {
            net.merge_factors_into(merged);
            let loss = threads_gradient(merged, records, batch, objective, workers);
            net.layout.fold_factor_gradient(&workers[0].grad, folded);
            (folded, loss)
        }
        None => {
            let loss = threads_gradient(net, records, batch, objective, workers);
            (&workers[0].grad, loss)
        }
    }
}

/// [`gradient`] for a network without factor rows: left in the first worker's buffer.
fn threads_gradient(
    net: &Net,
    records: &[Record],
    batch: &[u32],
    objective: Objective,
    workers: &mut [Worker],
) -> f64 {
    let share = batch.len().div_ceil(workers.len()).max(1);
    let scale = 1.0 / batch.len().max(1) as f32;
    let losses: Vec<f64> = std::thread::scope(|s| {
        let handles: Vec<_> = workers
            .iter_mut()
            .zip(batch.chunks(share))
            .map(|(worker, part)| {
                s.spawn(move || {
                    worker.grad.fill(0.0);
                    let mut loss = 0.0;
                    for &i in part {
                        let record = &records[(i & !MIRRORED) as usize];
                        let features =
                            data::features_of(record, i & MIRRORED != 0, &net.layout.kings);
                        let out = net.forward(&features, &mut worker.scratch);
                        let target = objective.target(data::score(record), data::result(record));
                        let (l, d_out) = objective.loss(out, target);
                        loss += f64::from(l);
                        net.backward(
                            &features,
                            &mut worker.scratch,
                            d_out * scale,
                            &mut worker.grad,
                        );
                    }
                    loss
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .collect()
    });
    // Workers without a share (a batch smaller than the thread count) hold zeros.
    let used = batch.len().div_ceil(share);
    let (first, rest) = workers.split_at_mut(1);
    for other in rest.iter().take(used.saturating_sub(1)) {
        first[0]
            .grad
            .iter_mut()
            .zip(&other.grad)
            .for_each(|(g, o)| *g += o);
    }
    if used == 0 {
        first[0].grad.fill(0.0);
    }
    losses.iter().sum()
}

/// The mean loss of the network over all of `records` for each objective (one forward
/// pass serves them all), on `threads` threads.
pub fn mean_losses(
    net: &Net,
    records: &[Record],
    objectives: &[Objective],
    threads: usize,
) -> Vec<f64> {
    if records.is_empty() {
        return vec![0.0; objectives.len()];
    }
    let share = records.len().div_ceil(threads.max(1));
    let parts: Vec<Vec<f64>> = std::thread::scope(|s| {
        let handles: Vec<_> = records
            .chunks(share)
            .map(|part| {
                s.spawn(move || {
                    let mut scratch = Scratch::new(net.layout);
                    let mut sums = vec![0.0; objectives.len()];
                    for record in part {
                        let out = net.forward(&net.layout.features(record), &mut scratch);
                        let (score, result) = (data::score(record), data::result(record));
                        for (sum, objective) in sums.iter_mut().zip(objectives) {
                            let target = objective.target(score, result);
                            *sum += f64::from(objective.loss(out, target).0);
                        }
                    }
                    sums
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| vec![f64::NAN; objectives.len()])
            })
            .collect()
    });
    (0..objectives.len())
        .map(|i| parts.iter().map(|p| p[i]).sum::<f64>() / records.len() as f64)
        .collect()
}
