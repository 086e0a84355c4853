//! The training commands refuse what they cannot go on from at once,
//! before the long harvest of drawn sheets.

use crate::lab;

#[test]
fn training_from_a_missing_model_should_fail_at_once_with_one_line() {
    for command in ["train-digits", "train-pairs", "train-struck"] {
        // No MNIST either: the model is checked first.
        let out = lab(&[
            command,
            "--mnist",
            "/nonexistent/mnist",
            "--from",
            "/nonexistent/model.safetensors",
        ]);
        assert!(!out.status.success(), "{command}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{command}: {err}");
        assert!(
            err.contains("cannot read the model /nonexistent/model.safetensors"),
            "{command}: {err}"
        );
    }
}

#[test]
fn a_learning_rate_that_is_no_positive_number_should_be_refused() {
    let out = lab(&["train-digits", "--learning-rate=0"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--learning-rate must be a positive number"),
        "{err}"
    );
}

#[test]
fn a_bent_share_outside_nought_to_one_should_be_refused() {
    for bent in ["--bent=1.5", "--bent=-0.1"] {
        let out = lab(&["train-digits", "--mnist", "/nonexistent/mnist", bent]);
        assert!(!out.status.success(), "{bent}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--bent is a share between 0 and 1"),
            "{bent}: {err}"
        );
    }
}

/// A model to go on from brings its own layers: asking for a deep fresh
/// net beside it is a contradiction, refused before any work.
#[test]
fn a_deep_net_going_on_from_a_model_should_be_refused() {
    let out = lab(&[
        "train-digits",
        "--mnist",
        "/nonexistent/mnist",
        "--deep",
        "--from",
        "models/digits.safetensors",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--deep") && err.contains("--from"), "{err}");
}
