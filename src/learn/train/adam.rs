//! The Adam optimiser (Kingma and Ba), with the usual constants: β1 = 0.9, β2 = 0.999,
//! ε = 1e-8, and bias correction. Every parameter moves at every step, those of inputs
//! absent from the batch too (by their momentum), as in the standard algorithm.

/// Adam's state: the running means of the gradient and of its square, and the step count.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    pub step: u64,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

impl Adam {
    pub fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            step: 0,
        }
    }

    /// One step of size `lr` against `grad`.
    pub fn update(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        self.step += 1;
        // The corrections for the moments' start at zero, in f64 (β2^t creeps towards 0
        // over many thousands of steps).
        let t = self.step as f64;
        let c1 = (1.0 - f64::from(BETA1).powf(t)) as f32;
        let c2 = (1.0 - f64::from(BETA2).powf(t)) as f32;
        let step = lr / c1;
        for (((w, &g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *w -= step * *m / ((*v / c2).sqrt() + EPSILON);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_step_moves_each_parameter_by_the_learning_rate_against_its_gradient() {
        // With bias correction the first step is lr · g / |g| whatever the gradient's size.
        let mut adam = Adam::new(3);
        let mut w = vec![1.0, 1.0, 1.0];
        adam.update(&mut w, &[0.5, -2000.0, 0.0], 0.01);
        assert!(
            (w[0] - 0.99).abs() < 1e-6 && (w[1] - 1.01).abs() < 1e-6,
            "{w:?}"
        );
        assert_eq!(w[2], 1.0);
    }

    #[test]
    fn minimises_a_quadratic() {
        let mut adam = Adam::new(2);
        let mut w = vec![3.0, -4.0];
        for _ in 0..2000 {
            let grad = [2.0 * (w[0] - 1.0), 2.0 * (w[1] + 2.0)];
            adam.update(&mut w, &grad, 0.01);
        }
        assert!(
            (w[0] - 1.0).abs() < 1e-2 && (w[1] + 2.0).abs() < 1e-2,
            "{w:?}"
        );
    }
}
