//! Regression tests for the bugs the fuzz targets (`fuzz/`) found, one test per bug, named
//! after it, each replaying the smallest input that showed it through the public API.
//!
//! They live in the ordinary test suite so `cargo test` keeps them fixed without a nightly
//! toolchain or libFuzzer; the README's reliability section lists them with the target that
//! found each.

use ripples::{FieldView, Heights, Look, Renderer};

#[test]
fn renderer_with_scale_0_is_an_error_not_a_divide_by_zero() {
    // Found by `api_sequence`: `Renderer::render` computed the grid it expected by dividing by
    // the scale before refusing a scale of 0.
    let heights = vec![0i16; 4];
    let field = FieldView {
        heights: Heights::I16(&heights),
        velocities: None,
        width: 2,
        height: 2,
    };
    let src = vec![[9u8, 8, 7, 6]; 4];
    let mut dst = vec![[0u8; 4]; 4];
    let mut renderer = Renderer::new(2, 2);
    for look in [Look::classic(), Look::default()] {
        let error = renderer
            .render(field, 0, &look, &src, &mut dst, 2)
            .expect_err("a scale of 0 covers nothing");
        assert!(error.to_string().contains("scale 0"), "{error}");
        assert_eq!(dst, vec![[0u8; 4]; 4], "nothing is written on an error");
    }
    // The same field at scale 1 renders (flat water shows the source).
    renderer
        .render(field, 1, &Look::classic(), &src, &mut dst, 2)
        .unwrap();
    assert_eq!(dst, src);
}
