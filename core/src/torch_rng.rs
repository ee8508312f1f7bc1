//! `torch.manual_seed` and the CPU generator, bit for bit: mt19937, `uniform_`, both `normal_`
//! paths (AVX2 profile) and the `reset_parameters` of `nn.Embedding`, `nn.Linear` and `nn.RNN`.
//! See `TORCH_RNG.md`; section numbers below refer to it.

use crate::error::{Result, TorchError};
use crate::fma::fma;
use crate::ops::rnn::RnnConfig;
use crate::tensor::{numel, Tensor};
use rand_mt::Mt;

/// 2^-24: a 24-bit integer times this is an exact float32 in [0, 1).
const TWO_M24: f32 = 1.0 / 16_777_216.0;
/// 2^-53: a 53-bit integer times this is an exact double in [0, 1).
const TWO_M53: f64 = 1.0 / 9_007_199_254_740_992.0;
const LOW53: u64 = (1 << 53) - 1;

/// Cephes constants from `avx_mathfun.h`, as the float32 bits the kernel uses (§3.3).
const fn c(bits: u32) -> f32 {
    f32::from_bits(bits)
}
const SQRTHF: f32 = c(0x3F3504F3);
/// P0..P8 of the log polynomial.
#[rustfmt::skip]
const LOG_P: [f32; 9] = [
    c(0x3D9021BB), c(0xBDEBD1B8), c(0x3DEF251A), c(0xBDFE5D4F), c(0x3E11E9BF),
    c(0xBE2AAE50), c(0x3E4CCEAC), c(0xBE7FFFFC), c(0x3EAAAAAA),
];
const LOG_Q1: f32 = c(0xB95E8083);
const LOG_Q2: f32 = c(0x3F318000);
/// −π/4 split in three parts for the Cody–Waite reduction.
const MINUS_DP: [f32; 3] = [c(0xBF490000), c(0xB97DA000), c(0xB3222169)];
const SIN_P: [f32; 3] = [c(0xB94CA1F9), c(0x3C08839E), c(0xBE2AAAA3)];
const COS_P: [f32; 3] = [c(0x37CCF5CE), c(0xBAB6061A), c(0x3D2AAAA5)];
const FOPI: f32 = c(0x3FA2F983);
const TWO_PI_F: f32 = c(0x40C90FDB);

/// PyTorch's default CPU generator after `torch.manual_seed`.
#[derive(Clone, Debug)]
pub struct Generator {
    mt: Mt,
    seed: u64,
    /// `next_double_normal`: the sine half of the last scalar Box–Muller pair (§3.2).
    cached_normal: Option<f64>,
}

impl Generator {
    /// `torch.manual_seed(seed)`: any Python int in `[-2^63, 2^64-1]`; beyond that PyTorch's
    /// own `Overflow when unpacking long`.
    pub fn manual_seed(seed: i128) -> Result<Self> {
        if !(i128::from(i64::MIN)..=i128::from(u64::MAX)).contains(&seed) {
            return Err(TorchError::runtime("Overflow when unpacking long"));
        }
        // Negative seeds are read as their 64-bit two's complement; the engine keeps 32 bits (§1.1).
        let seed = seed as u64;
        Ok(Self { mt: Mt::new(seed as u32), seed, cached_normal: None })
    }

    /// A seed as a learner types it (decimal, optional `-`), with Python's and PyTorch's errors.
    pub fn parse_seed(text: &str) -> Result<i128> {
        let t = text.trim();
        let digits = t.strip_prefix('-').unwrap_or(t);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(TorchError::value(format!("invalid literal for int() with base 10: '{text}'")));
        }
        // Too many digits for i128 is still a valid Python int, which torch then rejects.
        let seed = t.parse::<i128>().map_err(|_| TorchError::runtime("Overflow when unpacking long"))?;
        Self::manual_seed(seed).map(|_| seed)
    }

    /// `torch.initial_seed()`: the seed as a u64.
    pub fn initial_seed(&self) -> u64 {
        self.seed
    }

    pub fn random(&mut self) -> u32 {
        self.mt.next_u32()
    }

    /// Two draws, the first in the high half (§1.5).
    pub fn random64(&mut self) -> u64 {
        self.mt.next_u64()
    }

    /// One float32 in [0, 1) from the LOW 24 bits of one draw (§2).
    fn uniform24(&mut self) -> f32 {
        (self.random() & 0x00FF_FFFF) as f32 * TWO_M24
    }

    /// `tensor.uniform_(from, to)`: one draw per element, `fma(x, range, from)` (§2).
    pub fn uniform_(&mut self, data: &mut [f32], from: f64, to: f64) {
        let (from, to) = (from as f32, to as f32);
        let range = to - from;
        for v in data {
            *v = fma(self.uniform24(), range, from);
        }
    }

    /// `tensor.normal_(mean, std)`: the scalar double path below 16 elements, else the block path.
    pub fn normal_(&mut self, data: &mut [f32], mean: f64, std: f64) {
        if data.len() < 16 {
            for v in data.iter_mut() {
                *v = self.standard_normal_f64().mul_add(std, mean) as f32;
            }
        } else {
            self.normal_blocks(data, mean as f32, std as f32);
        }
    }

    /// Double Box–Muller with a cache (§3.2): the second uniform makes the radius, the cosine is
    /// returned and the sine kept for the next scalar-path element, whoever asks for it.
    fn standard_normal_f64(&mut self) -> f64 {
        if let Some(z) = self.cached_normal.take() {
            return z;
        }
        let u1 = (self.random64() & LOW53) as f64 * TWO_M53;
        let u2 = (self.random64() & LOW53) as f64 * TWO_M53;
        let r = (-2.0 * (-u2).ln_1p()).sqrt();
        let theta = 2.0 * std::f64::consts::PI * u1;
        self.cached_normal = Some(r * theta.sin());
        r * theta.cos()
    }

    /// Block path (§3.3): uniforms for everything, transform full blocks of 16, then redraw 16
    /// fresh uniforms over the last 16 slots and transform those. The double cache is untouched.
    fn normal_blocks(&mut self, data: &mut [f32], mean: f32, std: f32) {
        let n = data.len();
        for v in data.iter_mut() {
            *v = self.uniform24();
        }
        for block in data.chunks_exact_mut(16) {
            box_muller_block(block, mean, std);
        }
        if !n.is_multiple_of(16) {
            let tail = &mut data[n - 16..];
            for v in tail.iter_mut() {
                *v = self.uniform24();
            }
            box_muller_block(tail, mean, std);
        }
    }

    /// `torch.randn(*shape)`: `empty(shape).normal_(0, 1)`.
    pub fn randn(&mut self, shape: &[usize]) -> Tensor {
        let mut data = vec![0.0; numel(shape).unwrap_or(0)];
        self.normal_(&mut data, 0.0, 1.0);
        tensor(shape, data)
    }

    /// `torch.rand(*shape)`: `empty(shape).uniform_(0, 1)`.
    pub fn rand(&mut self, shape: &[usize]) -> Tensor {
        self.uniform_tensor(shape, 0.0, 1.0)
    }

    fn uniform_tensor(&mut self, shape: &[usize], from: f64, to: f64) -> Tensor {
        let mut data = vec![0.0; numel(shape).unwrap_or(0)];
        self.uniform_(&mut data, from, to);
        tensor(shape, data)
    }

    /// `nn.Embedding(num_embeddings, embedding_dim, padding_idx)`: `normal_(0, 1)`, then the
    /// padding row (negative counts from the end) zeroed after drawing.
    pub fn embedding(
        &mut self,
        num_embeddings: usize,
        embedding_dim: usize,
        padding_idx: Option<i64>,
    ) -> Result<Tensor> {
        // Checked in `__init__`, before anything is drawn; 0 is never checked.
        let v = num_embeddings as i128;
        let pad = match padding_idx.map(i128::from) {
            Some(p) if (p > 0 && p >= v) || p < -v => return Err(TorchError::assertion(PAD_MSG)),
            Some(p) => Some((if p < 0 { p + v } else { p }) as usize),
            None => None,
        };
        let shape = [num_embeddings, embedding_dim];
        let n = numel(&shape).ok_or_else(|| TorchError::runtime("Embedding is too large"))?;
        let mut data = vec![0.0; n];
        self.normal_(&mut data, 0.0, 1.0);
        if let Some(p) = pad {
            // `padding_idx=0` with no rows passes the check, then `weight[0].fill_(0)` fails.
            if p >= num_embeddings {
                return Err(TorchError::index(EMPTY_MSG));
            }
            data[p * embedding_dim..][..embedding_dim].fill(0.0);
        }
        Tensor::new(shape.to_vec(), data)
    }

    /// `nn.Linear(in_features, out_features, bias)`: weight `(out, in)`, then bias `(out)`.
    pub fn linear(&mut self, in_features: usize, out_features: usize, bias: bool) -> (Tensor, Option<Tensor>) {
        // kaiming_uniform_(a=√5) in Python doubles (§4.2). Only an empty weight sees fan_in = 0.
        let fan_in = in_features as f64;
        let a = 5f64.sqrt();
        let gain = (2.0 / (1.0 + a * a)).sqrt();
        let bound = 3f64.sqrt() * (gain / fan_in.sqrt());
        let weight = self.uniform_tensor(&[out_features, in_features], -bound, bound);
        // The bias draws even when fan_in = 0: uniform_(0, 0) gives +0.0 per element.
        let b = inv_sqrt(in_features);
        let bias = bias.then(|| self.uniform_tensor(&[out_features], -b, b));
        (weight, bias)
    }

    /// `nn.RNN(...)`: every parameter, named, in registration (= drawing) order.
    pub fn rnn(&mut self, config: &RnnConfig) -> Vec<(String, Tensor)> {
        let stdv = inv_sqrt(config.hidden_size);
        let params = config.param_shapes().into_iter();
        params.map(|(name, shape)| (name, self.uniform_tensor(&shape, -stdv, stdv))).collect()
    }
}

const PAD_MSG: &str = "Padding_idx must be within num_embeddings";
const EMPTY_MSG: &str = "index 0 is out of bounds for dimension 0 with size 0";

/// PyTorch's `1 / math.sqrt(n) if n > 0 else 0`.
fn inv_sqrt(n: usize) -> f64 {
    if n == 0 {
        return 0.0;
    }
    1.0 / (n as f64).sqrt()
}

/// The data always fits the shape here; an impossible (overflowing) shape gives an empty tensor.
fn tensor(shape: &[usize], data: Vec<f32>) -> Tensor {
    Tensor::new(shape.to_vec(), data).unwrap_or_else(|_| Tensor::vector(Vec::new()))
}

/// One AVX2 block of 16 uniforms → 16 normals: lane j pairs `p = U[j]` (radius) with
/// `q = U[j+8]` (angle), writing the cosine to j and the sine to j+8.
fn box_muller_block(block: &mut [f32], mean: f32, std: f32) {
    for j in 0..8 {
        let (p, q) = (block[j], block[j + 8]);
        let r = (-2.0 * log_ps(1.0 - p)).sqrt();
        let (s, c) = sincos_ps(TWO_PI_F * q);
        block[j] = fma(r * c, std, mean);
        block[j + 8] = fma(r * s, std, mean);
    }
}

/// Cephes `log_ps` for x in [2^-24, 1], with GCC's FMA contractions exactly as compiled.
fn log_ps(x: f32) -> f32 {
    let bits = x.to_bits();
    let mut e = ((bits >> 23) as i32 - 127) as f32 + 1.0;
    let m = f32::from_bits((bits & 0x807F_FFFF) | 0x3F00_0000);
    // Fold the mantissa into [√½, √2) so the polynomial's argument stays small.
    let small = m < SQRTHF;
    e -= if small { 1.0 } else { 0.0 };
    let t = if small { m } else { 0.0 };
    let x = (m - 1.0) + t;
    let z = x * x;
    let mut y = LOG_P[1..].iter().fold(LOG_P[0], |y, &p| fma(y, x, p));
    y *= x;
    y = fma(y, z, e * LOG_Q1);
    y = fma(-z, 0.5, y);
    fma(e, LOG_Q2, x + y)
}

/// Cephes `sincos_ps` for θ ≥ 0: octant, three-part reduction, both polynomials, then swap and
/// sign by octant. Returns (sin, cos).
fn sincos_ps(theta: f32) -> (f32, f32) {
    let j = (((theta * FOPI) as i32) + 1) & !1;
    let yf = j as f32;
    let sin_neg = j & 4 != 0;
    let cos_neg = !(j - 2) & 4 != 0;
    let x = MINUS_DP.iter().fold(theta, |x, &dp| fma(yf, dp, x));
    let z = x * x;
    let c = fma(fma(COS_P[0], z, COS_P[1]), z, COS_P[2]) * z;
    let c = fma(c, z, -(z * 0.5)) + 1.0;
    let s = fma(fma(SIN_P[0], z, SIN_P[1]), z, SIN_P[2]) * z;
    let s = fma(s, x, x);
    let (sin, cos) = if j & 2 == 0 { (s, c) } else { (c, s) };
    let flip = |v: f32, neg: bool| if neg { -v } else { v };
    (flip(sin, sin_neg), flip(cos, cos_neg))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    fn seeded(seed: i128) -> Generator {
        Generator::manual_seed(seed).unwrap()
    }

    /// Float32 values as the doc prints them (the shortest double of each float).
    fn floats(s: &str) -> Vec<f32> {
        s.split_whitespace().map(|t| t.parse().unwrap()).collect()
    }

    fn assert_bits(got: &[f32], want: &[f32], what: &str) {
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(got), bits(want), "{what}: got {got:?}, want {want:?}");
    }

    /// §1.6: the first ten engine outputs for seed 123.
    const DRAWS_123: [u32; 10] = [
        2991312382, 3062119789, 1228959102, 1840268610, 974319580, 2967327842, 2367878886, 3088727057, 3090095699,
        2109339754,
    ];

    #[test]
    fn seed_123_draw_table() {
        let mut g = seeded(123);
        assert_eq!([(); 10].map(|_| g.random()), DRAWS_123);
        let mut g = seeded(123);
        let r64 = [(); 3].map(|_| g.random64());
        let hex = "[B24BCDFEB6843D6D, 49406D7E6DB04542, 3A12EFDCB0DDD462]";
        assert_eq!(format!("{r64:X?}"), hex, "first draw is the high half");
    }

    #[test]
    fn seeds_reduce_to_u64_then_u32() {
        let draws = |s: i128| {
            let mut g = seeded(s);
            [(); 5].map(|_| g.random())
        };
        assert_eq!(draws(123), draws(123 + (1 << 32)));
        assert_eq!(seeded(123 + (1 << 32)).initial_seed(), 123 + (1 << 32));
        assert_eq!(seeded(-1).initial_seed(), u64::MAX);
        assert_eq!(draws(-1), draws(u64::MAX.into()));
        assert_eq!(draws(-1), draws(0xFFFF_FFFF));
        let overflow = TorchError::runtime("Overflow when unpacking long");
        for bad in [1 << 64, -(1 << 63) - 1, i128::MAX] {
            assert_eq!(Generator::manual_seed(bad).unwrap_err(), overflow);
        }
        let parse = Generator::parse_seed;
        assert_eq!(parse(" 18446744073709551615"), Ok(u64::MAX.into()));
        assert_eq!(parse("-9223372036854775808"), Ok(i64::MIN.into()));
        assert_eq!(parse("18446744073709551616"), Err(overflow.clone()));
        assert_eq!(parse(&"9".repeat(60)), Err(overflow));
        for bad in ["", "-", "12a", "1.5", "+-3", "--1"] {
            assert_eq!(parse(bad).unwrap_err().kind, ErrorKind::ValueError);
        }
    }

    #[test]
    fn rand_and_randn_examples() {
        let low24 = |v: &u32| (v & 0xFF_FFFF) as f32 / 16_777_216.0;
        let rand5: Vec<f32> = DRAWS_123[..5].iter().map(low24).collect();
        assert_bits(seeded(123).rand(&[5]).data(), &rand5, "rand(5)");
        assert_eq!(rand5[4], floats("0.07397246360778809")[0]);

        let mut g = seeded(123);
        let randn3 = floats("-0.11146711558103561 0.12036294490098953 -0.3696345090866089");
        assert_bits(g.randn(&[3]).data(), &randn3, "randn(3)");
        let cache = -0.24041797675874255;
        assert_eq!(g.cached_normal, Some(cache));
        let randn5 = seeded(123).randn(&[5]);
        let prefix = [&randn3[..], &[cache as f32]].concat();
        assert_bits(&randn5.data()[..4], &prefix, "randn(5)");
        assert!((randn5.data()[4] + 1.1969).abs() < 5e-5);

        let mut g = seeded(123);
        let randn16 = g.randn(&[16]);
        let want = floats(
            "0.3374 -0.1778 -0.3035 -0.5880 0.3486 0.6603 -0.2196 -0.3792 \
             0.7671 -1.1925 0.6984 -1.4097 0.1794 1.8951 0.4954 0.2692",
        );
        for (x, w) in randn16.data().iter().zip(want) {
            assert!((x - w).abs() < 5e-5, "randn(16) = {randn16:?}");
        }
        assert_eq!(g.cached_normal, None, "block path leaves the cache");
        assert_eq!(seeded(1).randn(&[0, 3]).shape(), [0, 3]);
    }

    #[test]
    fn embedding_and_linear_first_rows() {
        // §3.5 lane 0: u1 -> L, then Θ -> (S, C).
        let v = floats(
            "0.7038880586624146 -0.3511359393596649 1.1564608812332153 0.91538405418396 \
             0.40258172154426575",
        );
        assert_eq!(log_ps(v[0]), v[1]);
        assert_eq!(sincos_ps(v[2]), (v[3], v[4]));

        let emb = seeded(123).embedding(4, 5, None).unwrap();
        let row = "0.3373701870441437 -0.1777772158384323 -0.3035275936126709 \
                   -0.5880118608474731 1.5809695720672607";
        assert_bits(&emb.data()[..5], &floats(row), "Embedding(4,5).weight[0]");
        let (w, b) = seeded(123).linear(4, 5, false);
        let row = "-0.20388805866241455 0.016562283039093018 -0.2483292818069458 \
                   0.18855679035186768";
        assert_bits(&w.data()[..4], &floats(row), "Linear(4,5).weight[0]");
        assert!(b.is_none() && w.shape() == [5, 4]);

        let assertion = Err(TorchError::assertion(PAD_MSG));
        assert_eq!(seeded(0).embedding(3, 2, Some(3)), assertion);
        assert_eq!(seeded(0).embedding(3, 2, Some(-4)), assertion);
        let empty = seeded(0).embedding(0, 2, Some(0));
        assert_eq!(empty.unwrap_err().kind, ErrorKind::IndexError);
        let (w, b) = seeded(0).linear(0, 3, true);
        assert!(w.numel() == 0 && b.unwrap().data().iter().all(|x| x.to_bits() == 0));
    }
}
