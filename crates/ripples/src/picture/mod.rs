//! A picture's place in a pool of another size: the geometry the command (fitting an image,
//! a mask or a scene to `--size`) and the page (an element's CSS `background-size: cover`)
//! share, as plain arithmetic on sizes. Resampling the pixels is each front end's own (the
//! command uses the `image` crate, the page the browser), so this folder holds numbers only.

pub(crate) mod fit;
