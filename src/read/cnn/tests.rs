use super::*;
use imageproc::drawing::draw_filled_rect_mut;
use imageproc::rect::Rect;

/// The bundled MNIST training subset (`samples/digits`): its images
/// (28×28 bytes each) and labels.
fn bundled_digits() -> &'static (Vec<u8>, Vec<u8>) {
    static DIGITS: std::sync::OnceLock<(Vec<u8>, Vec<u8>)> = std::sync::OnceLock::new();
    DIGITS.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/digits");
        let unzip = |name: &str, header: usize| {
            let file = std::fs::File::open(dir.join(name)).expect("bundled digits");
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(file), &mut bytes)
                .expect("gzip");
            bytes.split_off(header)
        };
        (
            unzip("train-images-subset.idx3-ubyte.gz", 16),
            unzip("train-labels-subset.idx1-ubyte.gz", 8),
        )
    })
}

pub(crate) fn mnist_digit(index: usize) -> (GrayImage, u8) {
    let (images, labels) = bundled_digits();
    let img = &images[index * 784..(index + 1) * 784];
    let label = labels[index];
    // As a cell delivers it: black ink on white, larger than 28 px.
    let src = GrayImage::from_fn(28, 28, |x, y| Luma([img[(y * 28 + x) as usize]]));
    let big = image::imageops::resize(&src, 56, 56, image::imageops::FilterType::Triangle);
    (
        GrayImage::from_fn(56, 56, |x, y| {
            Luma([if big.get_pixel(x, y)[0] > 100 { 0 } else { 255 }])
        }),
        label,
    )
}

#[test]
fn touching_digits_are_split_and_broken_strokes_merged() {
    let mut two = GrayImage::from_pixel(60, 40, Luma([255]));
    draw_filled_rect_mut(&mut two, Rect::at(5, 5).of_size(22, 30), Luma([0]));
    draw_filled_rect_mut(&mut two, Rect::at(27, 5).of_size(25, 30), Luma([0]));
    let pieces = segment(&two);
    assert_eq!(pieces.len(), 1, "one blob");
    let ways = splits(&pieces[0], Cuts::AlongPathToo);
    let two = ways
        .iter()
        .find(|w| w.0.len() == 2)
        .expect("read as two digits too");
    assert!(two.1 > 0.5, "broad enough to be two rather than one");
    assert!(
        splits(
            &GrayImage::from_pixel(20, 40, Luma([0])),
            Cuts::AlongPathToo
        )
        .len()
            == 1,
        "a narrow piece is one digit"
    );
    let mut broken = GrayImage::from_pixel(30, 40, Luma([255]));
    draw_filled_rect_mut(&mut broken, Rect::at(10, 2).of_size(4, 16), Luma([0]));
    draw_filled_rect_mut(&mut broken, Rect::at(11, 20).of_size(4, 16), Luma([0]));
    assert_eq!(
        segment(&broken).len(),
        1,
        "a 1 cut by a ruled line is one digit"
    );
}

#[test]
fn a_four_in_two_strokes_should_be_one_piece_but_two_apart_digits_two() {
    // An open 4: its bar's end reaches under its stem, the strokes apart.
    let four_at = |stem_x: i32| {
        let mut four = GrayImage::from_pixel(44, 44, Luma([255]));
        draw_filled_rect_mut(&mut four, Rect::at(6, 4).of_size(4, 22), Luma([0]));
        draw_filled_rect_mut(&mut four, Rect::at(6, 22).of_size(17, 4), Luma([0]));
        draw_filled_rect_mut(&mut four, Rect::at(stem_x, 4).of_size(4, 15), Luma([0]));
        four
    };
    assert_eq!(segment(&four_at(21)).len(), 1, "a 4, not \"41\"");
    // The stem clear of the bar's end in x: two pieces, as two digits.
    assert_eq!(segment(&four_at(25)).len(), 2);
    // Two ones side by side, however close: two.
    let mut ones = GrayImage::from_pixel(30, 44, Luma([255]));
    draw_filled_rect_mut(&mut ones, Rect::at(6, 4).of_size(4, 34), Luma([0]));
    draw_filled_rect_mut(&mut ones, Rect::at(11, 4).of_size(4, 34), Luma([0]));
    assert_eq!(segment(&ones).len(), 2, "11");
}

#[test]
fn a_detached_tail_joins_its_digit_but_a_second_digit_stays_apart() {
    let mut tail = GrayImage::from_pixel(40, 40, Luma([255]));
    draw_filled_rect_mut(&mut tail, Rect::at(5, 2).of_size(18, 36), Luma([0]));
    draw_filled_rect_mut(&mut tail, Rect::at(26, 24).of_size(4, 14), Luma([0]));
    assert_eq!(
        segment(&tail).len(),
        1,
        "a low bit beside a digit is part of it"
    );
    let mut two = GrayImage::from_pixel(60, 40, Luma([255]));
    draw_filled_rect_mut(&mut two, Rect::at(5, 2).of_size(18, 36), Luma([0]));
    draw_filled_rect_mut(&mut two, Rect::at(30, 4).of_size(5, 34), Luma([0]));
    assert_eq!(segment(&two).len(), 2, "a tall stroke beside it is a digit");
}

#[test]
fn a_detached_cap_just_over_a_digit_should_join_it_but_a_far_flat_stroke_not() {
    // A "4" and a "5" whose cap (sticking out to the right) is apart
    // from its body: as drawn, the body alone read "46" for 45.
    let five = |cap_top: i32| {
        let mut c = GrayImage::from_pixel(90, 60, Luma([255]));
        draw_filled_rect_mut(&mut c, Rect::at(4, 12).of_size(26, 44), Luma([0]));
        draw_filled_rect_mut(&mut c, Rect::at(50, 14).of_size(20, 36), Luma([0]));
        draw_filled_rect_mut(&mut c, Rect::at(62, cap_top).of_size(24, 6), Luma([0]));
        c
    };
    let pieces = segment(&five(4));
    assert_eq!(pieces.len(), 2, "a 4 and a 5");
    assert_eq!(pieces[1].height(), 46, "the 5 with its cap");
    let mut beside = GrayImage::from_pixel(100, 60, Luma([255]));
    draw_filled_rect_mut(&mut beside, Rect::at(4, 12).of_size(26, 44), Luma([0]));
    draw_filled_rect_mut(&mut beside, Rect::at(50, 14).of_size(20, 36), Luma([0]));
    draw_filled_rect_mut(&mut beside, Rect::at(72, 12).of_size(22, 6), Luma([0]));
    let pieces = segment(&beside);
    assert_eq!(pieces.len(), 2);
    assert_eq!(pieces[1].dimensions(), (44, 38), "a cap off the top right");
    let mut far = five(0);
    draw_filled_rect_mut(&mut far, Rect::at(50, 14).of_size(20, 2), Luma([255]));
    let pieces = segment(&far);
    assert_eq!(pieces.len(), 2);
    assert_eq!(
        pieces[1].height(),
        34,
        "a flat stroke 10 px above is dropped"
    );
}

#[test]
fn a_digit_broken_into_a_high_and_a_low_flat_piece_should_be_one_piece() {
    // "95" as on a sheet: the 9 (x 4..29, y 4..45), the 5's cap
    // (x 44..73, y 5..18) and its bowl (x 33..47, y 31..39), both flat.
    let mut c = GrayImage::from_pixel(78, 50, Luma([255]));
    draw_filled_rect_mut(&mut c, Rect::at(4, 4).of_size(26, 42), Luma([0]));
    draw_filled_rect_mut(&mut c, Rect::at(44, 5).of_size(30, 14), Luma([0]));
    draw_filled_rect_mut(&mut c, Rect::at(33, 31).of_size(15, 9), Luma([0]));
    let pieces = segment(&c);
    assert_eq!(pieces.len(), 2, "a 9 and a 5");
    assert_eq!(pieces[1].dimensions(), (41, 35), "the 5's cap and bowl");
    // Flat pieces above and below the writing, beyond its height (a
    // ring's arc ends), stay apart and go.
    let mut arcs = GrayImage::from_pixel(100, 60, Luma([255]));
    draw_filled_rect_mut(&mut arcs, Rect::at(4, 12).of_size(26, 36), Luma([0]));
    draw_filled_rect_mut(&mut arcs, Rect::at(40, 2).of_size(30, 8), Luma([0]));
    draw_filled_rect_mut(&mut arcs, Rect::at(58, 50).of_size(30, 8), Luma([0]));
    assert_eq!(segment(&arcs).len(), 1);
}

#[test]
fn normalised_digits_are_centred_like_mnist() {
    let (img, _) = mnist_digit(3);
    let v = normalise(&img);
    let (mut mx, mut my, mut m) = (0.0, 0.0, 0.0);
    for (i, p) in v.iter().enumerate() {
        mx += f64::from(*p) * (i % 28) as f64;
        my += f64::from(*p) * (i / 28) as f64;
        m += f64::from(*p);
    }
    assert!((mx / m - 14.0).abs() < 1.5 && (my / m - 14.0).abs() < 1.5);
}

/// The committed model reads the bundled MNIST training digits (it was
/// trained on them, so this checks the model and its plumbing, not its accuracy).
#[test]
fn the_committed_model_reads_handwritten_digits() {
    let mut reader = CnnReader::new().expect("model");
    let mut right = 0;
    for i in 0..200 {
        let (img, label) = mnist_digit(i * 5);
        let r = reader.read(&img);
        right += usize::from(r.text == label.to_string());
        assert!(r.confidence >= 0.0 && r.confidence <= 1.0);
    }
    assert!(right >= 180, "{right}/200");
}

/// The second net reads them too, as a net of its own: its
/// probabilities are not the first's.
#[test]
fn the_committed_second_net_reads_handwritten_digits_its_own_way() {
    let mut reader = CnnReader::new().expect("model");
    let images: Vec<GrayImage> = (0..200).map(|i| mnist_digit(i * 5).0).collect();
    let cells: Vec<&GrayImage> = images.iter().collect();
    let first = reader.read_batch(&cells);
    let second = reader.second_opinion(&cells).expect("a second net");
    let right = (0..200)
        .filter(|&i| second[i].text == mnist_digit(i * 5).1.to_string())
        .count();
    assert!(right >= 180, "{right}/200");
    let same = first.iter().zip(&second).filter(|(a, b)| a == b).count();
    assert!(same < 20, "{same}/200 readings identical");
    let mut plain = CnnReader::from_bytes(MODEL.to_vec()).expect("model");
    assert!(
        plain.second_opinion(&cells).is_none(),
        "only the committed pair"
    );
}

/// A harvest (seed 6) met a piece 2 px wide cut into digits: it read
/// past the piece's edge and the whole training died.
#[test]
fn a_piece_too_narrow_for_its_digits_should_be_cut_without_panic() {
    let piece = GrayImage::from_pixel(2, 6, Luma([0]));
    for k in 1..=4 {
        let parts = cut_into(&piece, k);
        assert_eq!(parts.len(), k);
        assert!(parts.iter().all(|p| p.width() >= 1 && p.height() == 6));
    }
}

/// Probabilities with `p` on digit `d` and `junk` on not-a-digit, the rest spread.
fn probs(d: usize, p: f32, junk: f32) -> [f32; CLASSES] {
    let rest = (1.0 - p - junk) / 9.0;
    std::array::from_fn(|k| match k {
        NOT_A_DIGIT => junk,
        k if k == d => p,
        _ => rest,
    })
}

/// The pair net's probabilities with `p` on the pair `ab` and `not_two`
/// on neither, the rest spread.
fn pair_probs(ab: usize, p: f32, not_two: f32) -> Vec<f32> {
    let rest = (1.0 - p - not_two) / 99.0;
    (0..=pair::NOT_TWO)
        .map(|k| match k {
            pair::NOT_TWO => not_two,
            k if k == ab => p,
            _ => rest,
        })
        .collect()
}

#[test]
fn overlapping_digits_the_cut_misreads_should_be_read_by_the_pair_net_too() {
    let img = || GrayImage::from_pixel(30, 20, Luma([0]));
    let options: Options = vec![vec![(vec![img()], 0.3), (vec![img(), img()], 0.7)]];
    // The cut leaves a stroke of one 5 in the other: "35" first, "55" second.
    let cut = || {
        let mut first = probs(3, 0.6, 0.0);
        first[5] = 0.35;
        [probs(1, 0.3, 0.6), first, probs(5, 0.95, 0.0)]
    };
    let r = best_strings(
        &options,
        &mut cut().into_iter(),
        &mut std::iter::repeat(None),
    );
    assert_eq!(r.text, "35");
    let mut sure_pair = [Some(pair_probs(55, 0.95, 0.01))].into_iter();
    let r = best_strings(&options, &mut cut().into_iter(), &mut sure_pair);
    assert_eq!(r.text, "55");
    assert!(r.alternatives.iter().any(|a| a.0 == "35"), "{r:?}");
    // A pair net sure it is not two digits takes half the mass of the split.
    let mut not_two = [Some(pair_probs(55, 0.0, 1.0))].into_iter();
    let r = best_strings(&options, &mut cut().into_iter(), &mut not_two);
    assert_eq!(r.text, "35");
    assert!(r.confidence < 0.6, "{}", r.confidence);
    // A cut read surely is left as read.
    let sure_cut = [
        probs(1, 0.3, 0.6),
        probs(3, 0.998, 0.0),
        probs(5, 0.998, 0.0),
    ];
    let mut other_pair = [Some(pair_probs(55, 0.95, 0.01))].into_iter();
    let r = best_strings(&options, &mut sure_cut.into_iter(), &mut other_pair);
    let alone = best_strings(
        &options,
        &mut sure_cut.into_iter(),
        &mut std::iter::repeat(None),
    );
    assert_eq!((r.text, r.confidence), (alone.text, alone.confidence));
}

#[test]
fn a_split_the_net_calls_no_digits_should_not_doubt_the_whole() {
    let img = || GrayImage::from_pixel(30, 20, Luma([0]));
    let options: Options = vec![vec![(vec![img()], 0.6), (vec![img(), img()], 0.4)]];
    let mut p = [
        probs(2, 0.99, 0.0),
        probs(2, 0.04, 0.95),
        probs(7, 0.04, 0.95),
    ]
    .into_iter();
    let r = best_strings(&options, &mut p, &mut std::iter::repeat(None));
    assert_eq!(r.text, "2");
    assert!(r.confidence > 0.95, "{}", r.confidence);
    // The net reading the halves as digits keeps the doubt.
    let mut p = [probs(2, 0.99, 0.0), probs(2, 0.9, 0.0), probs(7, 0.9, 0.0)].into_iter();
    let r = best_strings(&options, &mut p, &mut std::iter::repeat(None));
    assert!(r.confidence < 0.7, "{}", r.confidence);
    assert!(r.alternatives.iter().any(|a| a.0 == "27"));
}

#[test]
fn touching_digits_should_also_be_cut_where_they_meet_not_only_where_least_ink_is() {
    // A solid digit joined by a short bridge to a ring ("0"): the
    // least ink near the middle is inside the ring, the meeting point
    // is the bridge.
    let mut piece = GrayImage::from_pixel(48, 40, Luma([255]));
    draw_filled_rect_mut(&mut piece, Rect::at(0, 0).of_size(16, 40), Luma([0]));
    draw_filled_rect_mut(&mut piece, Rect::at(16, 14).of_size(4, 12), Luma([0]));
    draw_filled_rect_mut(&mut piece, Rect::at(20, 0).of_size(28, 40), Luma([0]));
    draw_filled_rect_mut(&mut piece, Rect::at(23, 3).of_size(22, 34), Luma([255]));
    let cuts = two_cuts(&piece, Cuts::AlongPathToo);
    assert!(
        cuts.len() <= TWO_CUTS + 1,
        "the straight cuts and one along a path"
    );
    let at: Vec<u32> = cuts.iter().map(|c| c[0].width()).collect();
    assert!(at[0] > 20, "the least ink is inside the ring: {at:?}");
    assert!(
        at.iter().any(|&x| (16..=20).contains(&x)),
        "a cut at the bridge: {at:?}"
    );
    for c in &cuts[..cuts.len() - 1] {
        assert_eq!(c[0].width() + c[1].width(), 48, "two parts, all of it");
    }
}

#[test]
fn slanted_digits_that_overlap_in_x_should_come_apart_whole_along_a_path() {
    // Two slanted bars leaning the same way, joined by a bridge: every
    // straight cut leaves a piece of one bar in the other's part.
    let mut piece = GrayImage::from_pixel(40, 40, Luma([255]));
    for y in 0..40 {
        let shift = (39 - y) / 4;
        for x in 2 + shift..12 + shift {
            piece.put_pixel(x, y, Luma([0]));
        }
        for x in 20 + shift..30 + shift {
            piece.put_pixel(x, y, Luma([0]));
        }
    }
    draw_filled_rect_mut(&mut piece, Rect::at(12, 18).of_size(14, 3), Luma([0]));
    let ink = |img: &GrayImage| img.pixels().filter(|p| p[0] < 128).count();
    let parts = path_cut(&piece, 18);
    assert_eq!(parts.len(), 2);
    // Each part holds its bar (10 px a row) and at most the bridge.
    for part in &parts {
        let n = ink(part);
        assert!((400..=400 + 42).contains(&n), "{n} ink pixels");
    }
    assert_eq!(ink(&parts[0]) + ink(&parts[1]), ink(&piece), "nothing lost");
    let straight = cut_at(&piece, &[18]);
    assert!(
        ink(&straight[1]) > 400 + 42,
        "a straight cut takes a piece of the left bar"
    );
}

#[test]
fn of_two_cuts_into_the_same_digits_the_better_read_one_should_count_alone() {
    let img = || GrayImage::from_pixel(30, 20, Luma([0]));
    let options: Options = vec![vec![
        (vec![img()], 0.5),
        (vec![img(), img()], 0.5),
        (vec![img(), img()], 0.5),
    ]];
    let read = [
        probs(7, 0.1, 0.9),
        probs(4, 0.5, 0.0),
        probs(9, 0.5, 0.0),
        probs(2, 0.95, 0.0),
        probs(7, 0.95, 0.0),
    ];
    let r = best_strings(
        &options,
        &mut read.into_iter(),
        &mut std::iter::repeat(None),
    );
    assert_eq!(r.text, "27");
    assert!(
        !r.alternatives.iter().any(|a| a.0 == "49"),
        "the worse cut is not read: {:?}",
        r.alternatives
    );
}

#[test]
fn a_piece_that_looks_like_no_digit_should_not_be_sure() {
    let options: Options = vec![vec![(vec![GrayImage::from_pixel(9, 20, Luma([0]))], 1.0)]];
    let r = best_strings(
        &options,
        &mut [probs(7, 0.1, 0.9)].into_iter(),
        &mut std::iter::repeat(None),
    );
    assert_eq!(r.text, "7");
    // Nine parts in ten "no digit": far from sure (0.1 of the floor's 0.2).
    assert!(r.confidence <= 0.5, "{}", r.confidence);
}

#[test]
fn a_narrow_piece_the_net_calls_no_digit_should_also_be_read_as_two() {
    let narrow = || vec![(vec![GrayImage::from_pixel(18, 40, Luma([0]))], 1.0)];
    let mut ways = narrow();
    settle_ways(&mut ways, &probs(7, 0.15, 0.8));
    assert!(ways.len() >= 2);
    for (parts, prior) in &ways[1..] {
        assert_eq!(parts.len(), 2, "cut in two");
        assert_eq!(*prior, TOUCHING_PRIOR);
    }
    // A digit the net is sure of stays whole, even beside its splits.
    let mut ways = narrow();
    ways.push((cut_into(&ways[0].0[0], 2), 0.3));
    settle_ways(&mut ways, &probs(7, 0.999, 0.0));
    assert_eq!(ways.len(), 1);
    // An unsure digit is not cut where nothing says it is no digit.
    let mut ways = narrow();
    settle_ways(&mut ways, &probs(7, 0.6, 0.1));
    assert_eq!(ways.len(), 1);
}

#[test]
fn further_cuts_should_be_read_only_where_the_first_is_not_sure() {
    let img = || GrayImage::from_pixel(30, 20, Luma([0]));
    let ways: Vec<Way> = vec![
        (vec![img()], 0.4),
        (vec![img(), img()], 0.4),
        (vec![img(), img()], 0.4),
        (vec![img(), img(), img()], 0.2),
    ];
    let pieces = vec![&ways, &ways];
    let mut read: Vec<Vec<Option<Parts>>> = vec![vec![None; 4], vec![None; 4]];
    // First: every first cut into a number of digits, no further one.
    assert_eq!(
        ways_to_read(&pieces, &read, false),
        vec![(0, 1), (0, 3), (1, 1), (1, 3)]
    );
    // The first piece's first cut read surely, the second's not.
    read[0][1] = Some(vec![probs(2, 0.999, 0.0), probs(7, 0.999, 0.0)]);
    read[1][1] = Some(vec![probs(2, 0.999, 0.0), probs(7, 0.6, 0.3)]);
    assert_eq!(ways_to_read(&pieces, &read, true), vec![(1, 2)]);
}

/// The embedding is the layer the net's decision weighs: digits of one
/// kind lie nearer each other in it than digits of two kinds, on the
/// whole (the bundled digits the model trained on).
#[test]
fn the_embedding_should_hold_a_digits_kind_together() {
    let reader = CnnReader::new().expect("model");
    let digits: Vec<(Vec<f32>, u8)> = (0..300)
        .map(|i| {
            let (img, label) = mnist_digit(i * 3);
            (normalise(&img), label)
        })
        .collect();
    let inputs: Vec<Vec<f32>> = digits.iter().map(|d| d.0.clone()).collect();
    let embedded = reader.embed(&inputs);
    assert_eq!(embedded.len(), inputs.len());
    let cosine = |a: &[f32], b: &[f32]| {
        let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
        let norm = |v: &[f32]| v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-9);
        dot / (norm(a) * norm(b))
    };
    let (mut same, mut other) = ((0.0, 0), (0.0, 0));
    for i in 0..embedded.len() {
        for j in i + 1..embedded.len() {
            let c = cosine(&embedded[i], &embedded[j]);
            let tally = if digits[i].1 == digits[j].1 {
                &mut same
            } else {
                &mut other
            };
            *tally = (tally.0 + c, tally.1 + 1);
        }
    }
    let mean = |t: (f32, usize)| t.0 / t.1.max(1) as f32;
    assert!(
        mean(same) > mean(other) + 0.2,
        "{} {}",
        mean(same),
        mean(other)
    );
}
