//! Rings around a value: told from digits, looked for again, peeled off.

use super::*;

/// The share of rays (%) that must end in a ring at the first look
/// ([`analyse`]); what peeling the ring leaves is judged after.
pub(super) const RING_FIRST_LOOK: u32 = 85;

/// The share of rays (%) that must end in a ring at [`ring_searched`]'s
/// second look: on dA and wA (merkur, 200 sheets) the 8 rings the first
/// look missed end 42-48 rays of 48 in a ring, the 49 false rings the
/// ring test alone finds on unringed values at most 44.
pub(super) const RING_SECOND_LOOK: u32 = 93;

/// A second look for a ring, where the sheet's rules expect one (the
/// soloist's value in a solo row) and [`analyse`] found none. A tight ring
/// whose ink runs into the next row's across a ruled line stretches the
/// ink's box, and the ring test, which looks along rays from the box's
/// centre, misses it; here the box's sides are also pulled in, each by up
/// to a quarter, and the ring test runs on each box. Looked at everywhere,
/// it finds rings where none is drawn (22 in 40 303 unringed values on
/// the tuning and development sets), so it is only asked where the rules
/// expect a ring.
pub fn ring_searched(crop: &GrayImage) -> bool {
    // Without what peeling leaves to judge by, the ring itself must be
    // clearer than at the first look's 85% of rays.
    ring_searched_at(crop, RING_SECOND_LOOK)
}

/// [`ring_searched`] with `share` (%) of the rays to end in a ring.
pub(super) fn ring_searched_at(crop: &GrayImage, share: u32) -> bool {
    let inside = within_lines(crop);
    let crops = std::iter::once(crop).chain(inside.as_ref());
    for crop in crops {
        for at in [Cut::FromCore, Cut::Shade] {
            let ink = FieldInk::of(crop, at);
            if ink.kept.is_empty() {
                continue;
            }
            let clean = ink.clean();
            let (x0, y0, x1, y1) = bbox(&ink.kept);
            let (bw, bh) = (x1 - x0 + 1, y1 - y0 + 1);
            for pulls in 0..81u32 {
                let [l, t, r, b] = [pulls % 3, pulls / 3 % 3, pulls / 9 % 3, pulls / 27];
                let bx = (
                    x0 + l * bw / 8,
                    y0 + t * bh / 8,
                    x1 - r * bw / 8,
                    y1 - b * bh / 8,
                );
                if is_ring(&clean, &ink.lines, bx, share) {
                    return true;
                }
            }
        }
    }
    false
}

/// A ring around other ink, in box `(x0, y0, x1, y1)`: the box is about
/// round and a ring's height or more, and along `share` % of the rays from
/// its centre or more, the outermost ink is a thin run near the box's
/// ellipse (or the ring is hidden in a ruled line there); along many, with
/// white before it; and there is ink inside. A digit 0 has nothing inside;
/// a 2 or 3 has no gap on most rays.
pub(super) fn is_ring(
    ink: &GrayImage,
    lines: &GrayImage,
    (x0, y0, x1, y1): (u32, u32, u32, u32),
    share: u32,
) -> bool {
    let (bw, bh) = (x1 - x0 + 1, y1 - y0 + 1);
    if bw * 4 < bh * 3 || f64::from(bh) / PX_PER_MM < 3.0 {
        return false;
    }
    let (w, h) = ink.dimensions();
    let (cx, cy) = (f64::from(x0 + x1) / 2.0, f64::from(y0 + y1) / 2.0);
    let (a, b) = (
        f64::from(x1 - x0) / 2.0 + 0.5,
        f64::from(y1 - y0) / 2.0 + 0.5,
    );
    let at = |img: &GrayImage, r: f64, t: f64| -> bool {
        let (x, y) = (cx + a * r * t.cos(), cy + b * r * t.sin());
        x >= 0.0
            && y >= 0.0
            && (x as u32) < w
            && (y as u32) < h
            && img.get_pixel(x as u32, y as u32)[0] > 0
    };
    let rays: u32 = 48;
    let steps: Vec<f64> = (0..=65).map(|i| f64::from(i) * 0.02).collect();
    let (mut ring, mut separate, mut inner) = (0u32, 0u32, 0u32);
    for i in 0..rays {
        let t = f64::from(i) * std::f64::consts::TAU / f64::from(rays);
        let on: Vec<bool> = steps.iter().map(|&r| at(ink, r, t)).collect();
        if on.iter().zip(&steps).any(|(&o, &r)| o && r < 0.5) {
            inner += 1;
        }
        match on.iter().rposition(|&o| o) {
            Some(end) if (0.8..=1.2).contains(&steps[end]) => {
                ring += 1;
                let mut start = end;
                while start > 0 && on[start - 1] {
                    start -= 1;
                }
                let thin = steps[end] - steps[start] <= 0.3;
                let gap_before = start >= 3 && !on[start - 1] && !on[start - 2];
                separate += u32::from(thin && gap_before);
            }
            // The ring may run inside a ruled line there.
            _ => {
                ring += u32::from(
                    steps
                        .iter()
                        .any(|&r| (0.7..=1.3).contains(&r) && at(lines, r, t)),
                )
            }
        }
    }
    // Digits may touch the ring (a broad pen): many rays, not all, see white between.
    ring * 100 >= rays * share && separate * 100 >= rays * 35 && inner * 100 >= rays * 15
}

/// The pieces among `pieces` that hold ink well inside the ring as well as
/// the ring: along a few rays from the centre, a second run of the piece
/// lies deeper than the first by a fifth of the radius or more. A ring is
/// one thin run on every ray (where its ends overlap, two runs a pen apart).
pub(super) fn holds_ink_inside_ring(
    labels: &image::ImageBuffer<Luma<u32>, Vec<u32>>,
    pieces: &std::collections::BTreeSet<u32>,
    (cx, cy): (f64, f64),
    (a, b): (f64, f64),
) -> std::collections::BTreeSet<u32> {
    const RAYS: usize = 360;
    // At this many rays (degrees) a piece is more than a ring.
    const DEEP_RAYS: usize = 4;
    const DEEPER: f64 = 0.2;
    let (w, h) = labels.dimensions();
    let step = 0.7 / a.max(b).max(1.0);
    let mut deep_rays: std::collections::BTreeMap<u32, usize> = Default::default();
    for i in 0..RAYS {
        let t = i as f64 * std::f64::consts::TAU / RAYS as f64;
        let (dx, dy) = (a * t.cos(), b * t.sin());
        // Per piece: where its first run started, and whether it ended;
        // the pieces counted on this ray.
        let mut first: Vec<(u32, f64, bool)> = Vec::new();
        let mut counted: Vec<u32> = Vec::new();
        let mut last_label = 0;
        let mut r = 1.25;
        while r > 0.0 {
            let (x, y) = (cx + dx * r, cy + dy * r);
            let l = if x >= 0.0 && y >= 0.0 && (x as u32) < w && (y as u32) < h {
                labels.get_pixel(x as u32, y as u32)[0]
            } else {
                0
            };
            if l != last_label {
                if let Some(e) = first.iter_mut().find(|e| e.0 == last_label) {
                    e.2 = true;
                }
                if pieces.contains(&l) {
                    match first.iter().find(|e| e.0 == l) {
                        None => first.push((l, r, false)),
                        Some(&(_, r0, true)) if r0 - r >= DEEPER && !counted.contains(&l) => {
                            *deep_rays.entry(l).or_default() += 1;
                            counted.push(l);
                        }
                        Some(_) => {}
                    }
                }
                last_label = l;
            }
            r -= step;
        }
    }
    deep_rays
        .into_iter()
        .filter(|&(_, n)| n >= DEEP_RAYS)
        .map(|(l, _)| l)
        .collect()
}

/// Erases what is left of a hand-drawn ring: along each ray from the
/// centre inwards, the first run of ink, no deeper than the ring is thick
/// (where a digit touches the ring, the digit stays). `drawn` is the ink
/// before the ring's free pieces went: where it has the ring, a run starting
/// there is ring; one starting deeper is a digit's edge (the ring went
/// whole there), and peeling it took a thin digit's strokes (a circled 9
/// read as 7, a 6 as "10").
pub(super) fn peel_ring(
    ink: &mut GrayImage,
    drawn: &GrayImage,
    (cx, cy): (f64, f64),
    (a, b): (f64, f64),
) {
    let (w, h) = ink.dimensions();
    let rays = 720;
    let step = 0.7 / a.max(b).max(1.0);
    let on = |img: &GrayImage, x: f64, y: f64| {
        x >= 0.0
            && y >= 0.0
            && (x as u32) < w
            && (y as u32) < h
            && img.get_pixel(x as u32, y as u32)[0] > 0
    };
    let ray = |i: usize| {
        let t = i as f64 * std::f64::consts::TAU / rays as f64;
        (a * t.cos(), b * t.sin())
    };
    let radii = || std::iter::successors(Some(1.25), |r| Some(r - step)).take_while(|&r| r > 0.35);
    // Per ray: the points of its first run of ink from outside, if it
    // starts where the ring does: at the first ink drawn (a tilted ring
    // runs well inside its box's ellipse on one diagonal).
    let mut runs: Vec<Vec<(u32, u32)>> = Vec::with_capacity(rays);
    for i in 0..rays {
        let (dx, dy) = ray(i);
        let ring = radii()
            .find(|&r| on(drawn, cx + dx * r, cy + dy * r))
            .unwrap_or(0.0);
        let mut run = Vec::new();
        for r in radii() {
            let (x, y) = (cx + dx * r, cy + dy * r);
            if on(ink, x, y) {
                if run.is_empty() && r < ring - 3.0 * step {
                    break;
                }
                let p = (x as u32, y as u32);
                if run.last() != Some(&p) {
                    run.push(p);
                }
            } else if !run.is_empty() {
                break;
            }
        }
        runs.push(run);
    }
    let mut lens: Vec<usize> = runs.iter().map(Vec::len).filter(|&n| n > 0).collect();
    lens.sort_unstable();
    let median = lens.get(lens.len() / 2).copied().unwrap_or(0);
    let thick = median * 3 / 2 + 1;
    for run in runs {
        // A run much longer than the ring is thick goes on into a digit
        // touching it: only the ring's own thickness is peeled there.
        let peel = if run.len() > thick { median + 1 } else { thick };
        for (x, y) in run.into_iter().take(peel) {
            ink.put_pixel(x, y, Luma([0]));
        }
    }
}

/// A field's ink as [`peel_found_ring`] needs it.
pub(super) struct RingInk<'a> {
    pub(super) labels: &'a image::ImageBuffer<Luma<u32>, Vec<u32>>,
    /// The labels of the pieces kept as ink.
    pub(super) keep: &'a std::collections::BTreeSet<u32>,
    /// The kept ink's box.
    pub(super) bounds: (u32, u32, u32, u32),
}

/// Peels a ring the first look found off `clean` (and its pieces off
/// `kept`), and gives the ink as drawn; `None` where what was left is too
/// low for what a ring holds ([`RING_HOLDS`]): the "ring" was digits, and
/// `clean` stays as written.
pub(super) fn peel_found_ring(
    ink: &RingInk,
    clean: &mut GrayImage,
    kept: &mut Vec<Component>,
) -> Option<GrayImage> {
    let labels = ink.labels;
    let (bx0, by0, bx1, by1) = ink.bounds;
    let (bw, bh) = (bx1 - bx0 + 1, by1 - by0 + 1);
    let h = labels.height();
    // The ring's own box: its tall pieces, not ink reaching in from a neighbour.
    let tall: Vec<Component> = kept
        .iter()
        .filter(|c| c.h() * 10 >= bh * 6)
        .cloned()
        .collect();
    let (rx0, ry0, rx1, ry1) = if tall.is_empty() {
        (bx0, by0, bx1, by1)
    } else {
        bbox(&tall)
    };
    let (cx, cy) = (f64::from(rx0 + rx1) / 2.0, f64::from(ry0 + ry1) / 2.0);
    let (a, b) = (
        f64::from(rx1 - rx0 + 1) / 2.0,
        f64::from(ry1 - ry0 + 1) / 2.0,
    );
    let r2 = |x: u32, y: u32| {
        let (dx, dy) = ((f64::from(x) - cx) / a, (f64::from(y) - cy) / b);
        dx * dx + dy * dy
    };
    // Pieces of the ring (a ruled line may have cut it in two or more)
    // lie wholly in the outer band: they go whole, so no arc ends are
    // left to be read as a 1. A ring the digits touch loses its band
    // only (at 80% of a piece in the band, a "1" touching the ring went
    // with it: circled "12" read as "2").
    let mut outer: std::collections::BTreeMap<u32, (u32, u32)> = Default::default();
    for (x, y, l) in labels.enumerate_pixels() {
        if ink.keep.contains(&l[0]) {
            let e = outer.entry(l[0]).or_default();
            e.0 += u32::from(r2(x, y) >= 0.45);
            e.1 += 1;
        }
    }
    let in_band: std::collections::BTreeSet<u32> = outer
        .into_iter()
        .filter(|(_, (o, n))| o * 100 >= n * 95)
        .map(|(l, _)| l)
        .collect();
    // A digit in the band touching the ring (a "1" along its side) is
    // one piece with it: that piece is peeled, not taken whole.
    let deep = holds_ink_inside_ring(labels, &in_band, (cx, cy), (a, b));
    let ring_piece: std::collections::BTreeSet<u32> = in_band.difference(&deep).copied().collect();
    let drawn = clean.clone();
    for (x, y, p) in clean.enumerate_pixels_mut() {
        if ring_piece.contains(&labels.get_pixel(x, y)[0]) {
            *p = Luma([0]);
        }
    }
    peel_ring(clean, &drawn, (cx, cy), (a, b));
    // What a ring holds is a number about as high as the ring; where
    // peeling leaves much less, the "ring" was digits (a "1" beside a
    // round "0"), and they stay as written.
    if f64::from(ink_height(clean)) < RING_HOLDS * f64::from(ry1 - ry0 + 1) {
        *clean = drawn;
        return None;
    }
    kept.retain(|c| c.w() < bw * 9 / 10 && !ring_piece.contains(&c.label));
    // What is left beyond the box's lines is the ring's and its
    // neighbours' (an arc end on a circled 1 made it a 7).
    for (_, y, p) in clean.enumerate_pixels_mut() {
        if beyond_lines(y, h) {
            *p = Luma([0]);
        }
    }
    Some(crop_to_ink(&drawn))
}
