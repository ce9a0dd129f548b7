//! The frame loop allocates nothing: the tests that count allocations, linked as one binary of
//! their own beside the integration tests' (`tests/it`). They count with a
//! `#[global_allocator]` ([`counting`]), which is one per binary: in `tests/it` it would count
//! every other test's allocations too, and would slow them all. The three modules share its
//! counter, taking turns with it ([`counting::one_at_a_time`]): `frame_loop` (steps, renders,
//! stones, swipes, rain and a scene), `physics` (the physical solvers with walls, bodies and
//! floats) and `video` (a new picture every frame).

mod counting;

mod frame_loop;
mod physics;
mod video;
