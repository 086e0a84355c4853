//! A cell's ink cut into digits: broken strokes merged, touching digits
//! split, each normalised as MNIST is.

use super::*;

/// The box of the ink (pixels under 128): x0, y0, x1, y1.
pub fn ink_box(ink: &GrayImage) -> Option<(u32, u32, u32, u32)> {
    let mut b: Option<(u32, u32, u32, u32)> = None;
    for (x, y, p) in ink.enumerate_pixels() {
        if p[0] < 128 {
            b = Some(match b {
                None => (x, y, x, y),
                Some((a, c, d, e)) => (a.min(x), c.min(y), d.max(x), e.max(y)),
            });
        }
    }
    b
}

/// Ink (black on white, any size) as an MNIST-style 28×28 input in 0..1.
pub fn normalise(ink: &GrayImage) -> Vec<f32> {
    let mut out = vec![0f32; 784];
    let Some((x0, y0, x1, y1)) = ink_box(ink) else {
        return out;
    };
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    let scale = 20.0 / f64::from(w.max(h));
    let (sw, sh) = (
        ((f64::from(w) * scale).round() as u32).max(1),
        ((f64::from(h) * scale).round() as u32).max(1),
    );
    let crop = GrayImage::from_fn(w, h, |x, y| Luma([255 - ink.get_pixel(x + x0, y + y0)[0]]));
    let small = image::imageops::resize(&crop, sw, sh, image::imageops::FilterType::Triangle);
    let (mut mx, mut my, mut m) = (0.0, 0.0, 0.0);
    for (x, y, p) in small.enumerate_pixels() {
        let v = f64::from(p[0]);
        mx += v * f64::from(x);
        my += v * f64::from(y);
        m += v;
    }
    let (cx, cy) = if m > 0.0 {
        (mx / m, my / m)
    } else {
        (f64::from(sw) / 2.0, f64::from(sh) / 2.0)
    };
    let (ox, oy) = ((14.0 - cx).round() as i64, (14.0 - cy).round() as i64);
    for (x, y, p) in small.enumerate_pixels() {
        let (tx, ty) = (i64::from(x) + ox, i64::from(y) + oy);
        if (0..28).contains(&tx) && (0..28).contains(&ty) {
            out[(ty * 28 + tx) as usize] = f32::from(p[0]) / 255.0;
        }
    }
    out
}

/// A component's box and size: x0, y0, x1, y1, pixels.
pub(super) type Bounds = (u32, u32, u32, u32, u32);

/// The box and size of two pieces together.
pub(super) fn joined(a: Bounds, b: Bounds) -> Bounds {
    (
        a.0.min(b.0),
        a.1.min(b.1),
        a.2.max(b.2),
        a.3.max(b.3),
        a.4 + b.4,
    )
}

/// Moves group `i` (its box and labels) into group `j`.
pub(super) fn merge_group(groups: &mut Vec<(Bounds, Vec<u32>)>, i: usize, j: usize) {
    let (g, ls) = groups.remove(i);
    let j = if j > i { j - 1 } else { j };
    let (h, hl) = &mut groups[j];
    *h = joined(*h, g);
    hl.extend(ls);
}

/// Cuts a cell's ink into pieces, left to right: specks dropped, pieces of
/// a broken stroke merged, arc ends of a circle above or below the writing
/// dropped. A piece may still hold touching digits (see [`splits`]).
pub fn segment(ink: &GrayImage) -> Vec<GrayImage> {
    segment_placed(ink).into_iter().map(|p| p.0).collect()
}

/// The pieces of [`segment`], each with its top left corner in `ink`.
pub fn segment_placed(ink: &GrayImage) -> Vec<(GrayImage, u32, u32)> {
    let (w, h) = ink.dimensions();
    let inv = GrayImage::from_fn(w, h, |x, y| {
        Luma([if ink.get_pixel(x, y)[0] < 128 { 255 } else { 0 }])
    });
    let labels = crate::page::label::connected_components(&inv, 0);
    let mut groups = overlapping_pieces(&labels);
    let tallest = groups
        .iter()
        .max_by_key(|(g, _)| g.3 - g.1)
        .map(|(g, _)| *g);
    if let Some(t) = tallest {
        join_caps(&mut groups, t);
        join_low_bits(&mut groups, t.3 - t.1 + 1);
        join_touching(&mut groups);
    }
    groups
        .into_iter()
        .map(|((x0, y0, x1, y1, _), ls)| {
            let piece = GrayImage::from_fn(x1 - x0 + 1, y1 - y0 + 1, |x, y| {
                Luma([if ls.contains(&labels.get_pixel(x + x0, y + y0)[0]) {
                    0
                } else {
                    255
                }])
            });
            (piece, x0, y0)
        })
        .collect()
}

/// Groups of labels with their box: pieces (all but specks) overlapping in
/// x by more than half are merged.
fn overlapping_pieces(labels: &image::ImageBuffer<Luma<u32>, Vec<u32>>) -> Vec<(Bounds, Vec<u32>)> {
    let boxes: Vec<(u32, Bounds)> = crate::cells::components(labels)
        .into_iter()
        .map(|c| (c.label, (c.x0, c.y0, c.x1, c.y1, c.area)))
        .collect();
    let total: u32 = boxes.iter().map(|(_, b)| b.4).sum();
    let mut groups: Vec<(Bounds, Vec<u32>)> = Vec::new();
    let mut list: Vec<(u32, Bounds)> = boxes
        .into_iter()
        .filter(|(_, b)| b.4 * 40 >= total)
        .collect();
    list.sort_by_key(|(_, b)| b.0);
    for (l, b) in list {
        if let Some((g, ls)) = groups.last_mut() {
            let overlap = g.2.min(b.2) as i64 - g.0.max(b.0) as i64;
            if overlap * 2 > i64::from((b.2 - b.0).min(g.2 - g.0)) {
                *g = joined(*g, b);
                ls.push(l);
                continue;
            }
        }
        groups.push((b, vec![l]));
    }
    groups
}

/// Flat pieces above or below the writing's middle (`t`, its tallest
/// piece) are not digits...
fn flat_outside(t: Bounds, g: &Bounds) -> bool {
    let th = t.3 - t.1 + 1;
    let gh = g.3 - g.1 + 1;
    let mid = (g.1 + g.3) / 2;
    gh * 100 < th * 35 && (mid <= t.1 + th / 4 || mid >= t.3 - th / 4)
}

/// ...unless a flat piece high in the writing is a detached cap (of a 5:
/// without it the 5 reads as a 6, or a 2). It joins a digit it sits just
/// on top of, over it or off its top right; else a flat piece low in the
/// writing under it, where the two make a digit within the writing's
/// height (a 5 whose cap and bowl are both flat went whole: "95" read "9").
/// The rest of the flat pieces are dropped.
fn join_caps(groups: &mut Vec<(Bounds, Vec<u32>)>, t: Bounds) {
    let th = t.3 - t.1 + 1;
    let flat = |g: &Bounds| flat_outside(t, g);
    let reach = i64::from(th / CAP_GAP);
    let (top, bottom) = (t.1.saturating_sub(th / 8), t.3 + th / 8);
    let high = |g: &Bounds| (g.1 + g.3) / 2 < t.1 + th / 2;
    let joins = |cap: Bounds, d: Bounds, bowl: bool| {
        let overlap = d.2.min(cap.2) as i64 - d.0.max(cap.0) as i64;
        if bowl {
            let u = joined(cap, d);
            return flat(&d)
                && !high(&d)
                && overlap >= -reach
                && u.1 >= top
                && u.3 <= bottom
                && (u.3 - u.1 + 1) * 100 >= th * 60;
        }
        let gap = d.1 as i64 - cap.3 as i64;
        let over = overlap * 4 >= i64::from(cap.2 - cap.0) && (-1..=reach).contains(&gap);
        // A cap drawn off to the right, level with the digit's top.
        let beside = cap.0 > d.0 + (d.2 - d.0) / 2
            && overlap >= -reach
            && (-i64::from(th / 4)..=reach).contains(&gap);
        !flat(&d) && (over || beside)
    };
    // Digits first: a bowl is a cap's only where no digit takes it.
    while let Some((i, j)) = [false, true].into_iter().find_map(|bowl| {
        (0..groups.len()).find_map(|i| {
            let cap = groups[i].0;
            if !flat(&cap) || !high(&cap) {
                return None;
            }
            (0..groups.len())
                .find(|&j| j != i && joins(cap, groups[j].0, bowl))
                .map(|j| (i, j))
        })
    }) {
        merge_group(groups, i, j);
    }
    groups.retain(|(g, _)| !flat(g));
}

/// A low piece close beside a digit is a detached bit of its stroke (a
/// tail, a loop's end): it joins the nearer neighbour. `th` is the
/// writing's height.
fn join_low_bits(groups: &mut Vec<(Bounds, Vec<u32>)>, th: u32) {
    while let Some(i) = groups
        .iter()
        .position(|(g, _)| (g.3 - g.1 + 1) * 100 < th * 50)
    {
        let gap = |j: usize| {
            let (a, b) = (groups[i].0, groups[j].0);
            (a.0.max(b.0) as i64 - a.2.min(b.2) as i64).max(0)
        };
        let near = [i.checked_sub(1), (i + 1 < groups.len()).then_some(i + 1)]
            .into_iter()
            .flatten()
            .min_by_key(|&j| gap(j))
            .filter(|&j| gap(j) * 4 <= i64::from(th));
        let Some(j) = near else {
            break;
        };
        merge_group(groups, i, j);
    }
}

/// Pieces that touch or overlap in x (by less than the half that merges
/// them in [`overlapping_pieces`]) into a box no broader than high, nor
/// much narrower, are one piece that the split hypotheses may still cut
/// where they meet: a 4 written in two strokes, its bar's end under its
/// stem, was read "41" (docs/reading.md).
fn join_touching(groups: &mut Vec<(Bounds, Vec<u32>)>) {
    while let Some(i) = (0..groups.len().saturating_sub(1)).find(|&i| {
        let (a, b) = (groups[i].0, groups[i + 1].0);
        let u = joined(a, b);
        let (uw, uh) = (u.2 - u.0 + 1, u.3 - u.1 + 1);
        b.0 <= a.2 + 1 && uw <= uh && uw * 2 >= uh
    }) {
        merge_group(groups, i + 1, i);
    }
}

/// How many digits (1 to 4) a piece of this width-to-height ratio holds:
/// shares measured on sheets drawn from training digits
/// (`examples/split_prior.rs`, 150 sheets), interpolated between aspects. A
/// single digit is rarely broader than high, so a narrow piece barely
/// doubts itself.
pub(super) fn digits_prior(aspect: f32) -> [f32; 4] {
    const SHARES: [(f32, [f32; 4]); 13] = [
        (0.95, [0.999, 0.001, 0.0, 0.0]),
        (1.05, [0.995, 0.005, 0.0, 0.0]),
        (1.15, [0.97, 0.03, 0.0, 0.0]),
        (1.25, [0.83, 0.17, 0.0, 0.0]),
        (1.35, [0.58, 0.42, 0.0, 0.0]),
        (1.45, [0.32, 0.68, 0.0, 0.0]),
        (1.55, [0.19, 0.81, 0.0, 0.0]),
        (1.75, [0.12, 0.86, 0.02, 0.0]),
        (1.95, [0.12, 0.68, 0.2, 0.0]),
        (2.1, [0.1, 0.52, 0.36, 0.02]),
        (2.3, [0.05, 0.3, 0.5, 0.15]),
        (2.5, [0.02, 0.1, 0.48, 0.4]),
        (2.8, [0.02, 0.05, 0.25, 0.68]),
    ];
    let mut last = SHARES[0];
    if aspect <= last.0 {
        return last.1;
    }
    for (a, q) in SHARES.iter().copied().skip(1) {
        if aspect < a {
            let t = (aspect - last.0) / (a - last.0);
            return std::array::from_fn(|k| last.1[k] + (q[k] - last.1[k]) * t);
        }
        last = (a, q);
    }
    last.1
}

/// The ways a piece can be read: one digit, or two, three or four touching
/// ones (cut where the least ink is, near even spacing), each with its
/// prior from the piece's width to its height. The net's confidence in the
/// parts then decides between them.
pub fn splits(piece: &GrayImage, cuts: Cuts) -> Vec<Way> {
    let (w, h) = piece.dimensions();
    let prior = digits_prior(w as f32 / h.max(1) as f32);
    let mut out = vec![(vec![piece.clone()], prior[0])];
    for (k, &weight) in prior.iter().enumerate().skip(1) {
        if weight >= 0.002 && w >= 4 * (k as u32 + 1) {
            // A piece that may hold three digits keeps the one even cut
            // into two: the best of several cuts would outbid three.
            if k == 1 && prior[2..].iter().sum::<f32>() < 0.2 {
                out.extend(two_cuts(piece, cuts).into_iter().map(|c| (c, weight)));
            } else {
                out.push((cut_into(piece, k + 1), weight));
            }
        }
    }
    out
}

/// Which cuts of a piece into two are tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cuts {
    /// Straight down only: what the committed model was trained on.
    Straight,
    /// Also one along a path: what the reader tries.
    AlongPathToo,
}

/// Most cuts of a piece into two tried: the least ink near the middle
/// ([`cut_into`]), up to two more of the profile's low points between a
/// quarter and three quarters of the width, and, with
/// [`Cuts::AlongPathToo`], one along a path from the first ([`path_cut`]).
/// Where two digits touch, the least ink is often not where they meet (the
/// tail of a "2" running under a "7"); the net's reading then picks the cut
/// (see [`best_strings`]), as every cut's strings share one prior.
pub fn two_cuts(piece: &GrayImage, cuts: Cuts) -> Vec<Vec<GrayImage>> {
    let w = piece.width();
    let first = cut_into(piece, 2);
    let mut at: Vec<u32> = vec![first.first().map_or(0, GrayImage::width)];
    let apart = (w / 10).max(3);
    for x in low_points(piece, (w / 4).max(2), (3 * w / 4).min(w.saturating_sub(2))) {
        if at.len() >= TWO_CUTS {
            break;
        }
        if at.iter().all(|&a| a.abs_diff(x) >= apart) {
            at.push(x);
        }
    }
    let mut out = vec![first];
    out.extend(at[1..].iter().map(|&x| cut_at(piece, &[x])));
    if cuts == Cuts::AlongPathToo {
        out.push(path_cut(piece, at[0]));
    }
    out
}

/// A piece cut in two along the path from top to bottom that crosses the
/// least ink near column `x`, bending a column a row at most: slanted
/// digits that overlap in x ("60" leaning into each other) come apart
/// whole, where every straight cut leaves a stroke of one in the other.
pub fn path_cut(piece: &GrayImage, x: u32) -> Vec<GrayImage> {
    let (w, h) = piece.dimensions();
    if w < 4 || h == 0 {
        return cut_at(piece, &[x]);
    }
    let reach = (w / 5).max(2);
    let (lo, hi) = (x.saturating_sub(reach).max(1), (x + reach).min(w - 1));
    let cols = (hi - lo + 1) as usize;
    // Crossing an ink pixel costs far more than bending or straying.
    let cost = |c: usize, y: u32| {
        let col = lo + c as u32;
        let ink = if piece.get_pixel(col, y)[0] < 128 {
            16
        } else {
            0
        };
        ink + col.abs_diff(x)
    };
    let mut total: Vec<u32> = (0..cols).map(|c| cost(c, 0)).collect();
    let mut from: Vec<Vec<usize>> = Vec::with_capacity(h as usize);
    for y in 1..h {
        let mut next = vec![0; cols];
        let mut back = vec![0; cols];
        for c in 0..cols {
            let best = (c.saturating_sub(1)..=(c + 1).min(cols - 1))
                .min_by_key(|&p| total[p] + u32::from(p != c))
                .unwrap_or(c);
            next[c] = total[best] + u32::from(best != c) + cost(c, y);
            back[c] = best;
        }
        total = next;
        from.push(back);
    }
    let mut c = (0..cols).min_by_key(|&c| total[c]).unwrap_or(0);
    let mut path = vec![0u32; h as usize];
    for y in (0..h as usize).rev() {
        path[y] = lo + c as u32;
        if y > 0 {
            c = from[y - 1][c];
        }
    }
    let (left_w, right_x) = (
        path.iter().copied().max().unwrap_or(x),
        path.iter().copied().min().unwrap_or(x),
    );
    let left = GrayImage::from_fn(left_w, h, |cx, y| {
        let inside = cx < path[y as usize];
        Luma([if inside {
            piece.get_pixel(cx, y)[0]
        } else {
            255
        }])
    });
    let right = GrayImage::from_fn(w - right_x, h, |cx, y| {
        let inside = cx + right_x >= path[y as usize];
        Luma([if inside {
            piece.get_pixel(cx + right_x, y)[0]
        } else {
            255
        }])
    });
    vec![left, right]
}

/// The low points of a piece's ink profile between `lo` and `hi`: runs of
/// equal ink lower than both neighbours, each by its middle, least ink first.
pub(super) fn low_points(piece: &GrayImage, lo: u32, hi: u32) -> Vec<u32> {
    let profile: Vec<(u32, usize)> = (lo..hi.max(lo)).map(|x| (x, ink_in(piece, x))).collect();
    let runs: Vec<&[(u32, usize)]> = profile.chunk_by(|a, b| a.1 == b.1).collect();
    let mut lows: Vec<(u32, usize)> = runs
        .iter()
        .enumerate()
        .filter(|(i, r)| {
            let left = i.checked_sub(1).and_then(|j| runs.get(j));
            let right = runs.get(i + 1);
            left.is_none_or(|l| l[0].1 > r[0].1) && right.is_none_or(|n| n[0].1 > r[0].1)
        })
        .map(|(_, r)| r[r.len() / 2])
        .collect();
    lows.sort_by_key(|p| (p.1, p.0));
    lows.into_iter().map(|p| p.0).collect()
}

/// How many pixels of column `x` are ink.
pub(super) fn ink_in(piece: &GrayImage, x: u32) -> usize {
    (0..piece.height())
        .filter(|&y| piece.get_pixel(x, y)[0] < 128)
        .count()
}

/// A piece cut at the given columns (left to right).
pub(super) fn cut_at(piece: &GrayImage, at: &[u32]) -> Vec<GrayImage> {
    let (w, h) = piece.dimensions();
    let edges: Vec<u32> = std::iter::once(0)
        .chain(at.iter().copied())
        .chain(std::iter::once(w))
        .collect();
    edges
        .windows(2)
        .map(|e| {
            let width = e[1].saturating_sub(e[0]).max(1);
            image::imageops::crop_imm(piece, e[0].min(w.saturating_sub(1)), 0, width, h).to_image()
        })
        .collect()
}

/// A piece cut into `k` touching digits: each cut where the least ink is,
/// within a third of a digit of even spacing.
pub fn cut_into(piece: &GrayImage, k: usize) -> Vec<GrayImage> {
    let w = piece.width();
    let k = k.max(1) as u32;
    let mut cuts = vec![0];
    for j in 1..k {
        let (lo, hi) = ((w * (3 * j - 1)) / (3 * k), (w * (3 * j + 1)) / (3 * k));
        let lo = lo.max(cuts[cuts.len() - 1] + 2);
        // A piece too narrow for k digits has no column left to cut at.
        let hi = hi.max(lo + 1).min(w);
        cuts.push(
            (lo..hi)
                .min_by_key(|&x| ink_in(piece, x))
                .unwrap_or(lo.min(w)),
        );
    }
    cut_at(piece, &cuts[1..])
}
