//! Plane geometry for alignment: a homography between form millimetres and
//! image pixels, fitted to any number of point pairs.

use nalgebra::{DMatrix, Matrix3, Vector3};

/// A point `(x, y)`.
pub type Point = (f64, f64);

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Homography(pub Matrix3<f64>);

impl Homography {
    pub fn identity() -> Self {
        Homography(Matrix3::identity())
    }

    pub fn scale_translate(sx: f64, sy: f64, tx: f64, ty: f64) -> Self {
        Homography(Matrix3::new(sx, 0.0, tx, 0.0, sy, ty, 0.0, 0.0, 1.0))
    }

    pub fn apply(&self, (x, y): (f64, f64)) -> (f64, f64) {
        let v = self.0 * Vector3::new(x, y, 1.0);
        (v.x / v.z, v.y / v.z)
    }

    pub fn inverse(&self) -> Option<Self> {
        self.0.try_inverse().map(Homography)
    }

    pub fn then(&self, next: &Homography) -> Self {
        Homography(next.0 * self.0)
    }

    /// Least-squares fit (normalised DLT) to `from -> to` pairs; at least 4.
    pub fn fit(pairs: &[(Point, Point)]) -> Option<Self> {
        if pairs.len() < 4 {
            return None;
        }
        let (tf, nf) = normaliser(pairs.iter().map(|p| p.0));
        let (tt, nt) = normaliser(pairs.iter().map(|p| p.1));
        let mut a = DMatrix::<f64>::zeros(2 * pairs.len(), 9);
        for (i, &(f, t)) in pairs.iter().enumerate() {
            let (x, y) = nf(f);
            let (u, v) = nt(t);
            let r = 2 * i;
            a.row_mut(r)
                .copy_from_slice(&[-x, -y, -1.0, 0.0, 0.0, 0.0, u * x, u * y, u]);
            a.row_mut(r + 1)
                .copy_from_slice(&[0.0, 0.0, 0.0, -x, -y, -1.0, v * x, v * y, v]);
        }
        let ata = a.transpose() * &a;
        let eig = ata.symmetric_eigen();
        let (idx, _) = eig
            .eigenvalues
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.partial_cmp(b.1).unwrap_or(std::cmp::Ordering::Equal))?;
        let h = eig.eigenvectors.column(idx);
        let hn = Matrix3::new(h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8]);
        let full = tt.try_inverse()? * hn * tf;
        if !full.iter().all(|v| v.is_finite()) || full[(2, 2)].abs() < 1e-12 {
            return None;
        }
        Some(Homography(full / full[(2, 2)]))
    }
}

/// Moves points to their centroid and scales them to mean distance sqrt(2).
fn normaliser(points: impl Iterator<Item = (f64, f64)>) -> (Matrix3<f64>, impl Fn(Point) -> Point) {
    let pts: Vec<(f64, f64)> = points.collect();
    let n = pts.len().max(1) as f64;
    let cx = pts.iter().map(|p| p.0).sum::<f64>() / n;
    let cy = pts.iter().map(|p| p.1).sum::<f64>() / n;
    let d = pts
        .iter()
        .map(|p| ((p.0 - cx).powi(2) + (p.1 - cy).powi(2)).sqrt())
        .sum::<f64>()
        / n;
    let s = if d > 1e-12 {
        std::f64::consts::SQRT_2 / d
    } else {
        1.0
    };
    let m = Matrix3::new(s, 0.0, -s * cx, 0.0, s, -s * cy, 0.0, 0.0, 1.0);
    (m, move |(x, y)| ((x - cx) * s, (y - cy) * s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_recovers_a_perspective_map() {
        let truth = Homography(Matrix3::new(
            11.2, 0.4, 50.0, -0.3, 11.5, 80.0, 0.0002, -0.0001, 1.0,
        ));
        let pairs: Vec<_> = (0..6)
            .flat_map(|i| (0..5).map(move |j| (f64::from(i) * 40.0, f64::from(j) * 60.0)))
            .map(|p| (p, truth.apply(p)))
            .collect();
        let fit = Homography::fit(&pairs).expect("fit");
        for (p, q) in pairs {
            let r = fit.apply(p);
            assert!((r.0 - q.0).abs() < 1e-6 && (r.1 - q.1).abs() < 1e-6);
        }
        let back = fit
            .inverse()
            .expect("inverse")
            .apply(truth.apply((33.0, 77.0)));
        assert!((back.0 - 33.0).abs() < 1e-6 && (back.1 - 77.0).abs() < 1e-6);
    }
}
