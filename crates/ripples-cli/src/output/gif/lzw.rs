//! A lossy LZW compressor for GIF frames: it writes a standard GIF LZW stream (any decoder
//! reads it), but where the frame's true colour allows more than one palette entry, it picks
//! the entries that make the strings it already knows longer, as gifsicle's `--lossy` does.
//!
//! Each pixel comes as a [`PixelTarget`]: its true colour and the largest error (in levels, in
//! the channel that differs most) a palette entry may have there. At each string start the
//! compressor searches its dictionary depth first for the longest string whose every pixel is
//! within its target's bound (ties go to the smaller summed error), writes that string's code
//! and learns the string plus the first entry of the next one, as plain LZW does. Because each
//! pixel is judged against the frame's true colour, not against what an earlier frame showed,
//! the error never builds up over frames. The search visits at most [`SEARCH_BUDGET`] nodes per
//! string, which bounds the time on flat areas where every path is acceptable.
//!
//! A frame is compressed in strips of [`STRIP_PIXELS`] pixels, each starting from an empty
//! dictionary (after a clear code), so the strips of one frame are compressed in parallel and
//! their bit streams joined in order. The dictionary fills (4096 codes) every few ten thousand
//! pixels anyway, so the extra clears cost little. The strip size is fixed, so the bytes do not
//! depend on the number of threads.
//!
//! One palette entry can be "special": the transparent "keep" entry of a frame stored against
//! the previous one (it shows what the GIF showed before, whose error the target carries), or
//! the transparent entry of an animation with transparent pixels (allowed on those pixels
//! only). Codes are written exactly as the `weezl` encoder the `gif` crate uses writes them
//! (the same code size steps, a clear code when the dictionary is full).

/// Pixels per strip compressed on its own, from an empty dictionary.
pub(super) const STRIP_PIXELS: usize = 1 << 16;

/// Dictionary nodes the search for one string may visit.
const SEARCH_BUDGET: u32 = 256;

/// GIF codes are at most 12 bits, so the dictionary holds at most 4096 codes.
const MAX_CODES: usize = 1 << 12;
const MAX_CODE_SIZE: u8 = 12;

/// What one pixel of a frame may be written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct PixelTarget {
    /// The frame's true colour.
    pub(super) rgb: [u8; 3],
    /// The palette entry the colour lookup chose (always allowed).
    pub(super) mapped: u8,
    /// The largest error (levels, in the channel that differs most) an ordinary palette colour
    /// may have here; negative where none may be written (a transparent pixel).
    pub(super) limit: i16,
    /// The error of the special entry here (what "keep" shows, or 0 for the transparent entry
    /// on a transparent pixel); negative where the special entry may not be written.
    pub(super) special_error: i16,
}

/// A run of bits, least significant first, as GIF packs its codes.
#[derive(Debug, Default)]
pub(super) struct Bits {
    bytes: Vec<u8>,
    /// Bits not yet flushed to `bytes`, and how many.
    pending: u64,
    pending_len: u32,
}

impl Bits {
    fn push(&mut self, value: u32, len: u32) {
        self.pending |= u64::from(value) << self.pending_len;
        self.pending_len += len;
        while self.pending_len >= 8 {
            self.bytes.push(self.pending as u8);
            self.pending >>= 8;
            self.pending_len -= 8;
        }
    }

    /// Appends `other`'s bits after these.
    pub(super) fn append(&mut self, other: &Bits) {
        for &byte in &other.bytes {
            self.push(u32::from(byte), 8);
        }
        self.push(other.pending as u32, other.pending_len);
    }

    /// The bytes, the last one padded with zero bits.
    pub(super) fn into_bytes(mut self) -> Vec<u8> {
        if self.pending_len > 0 {
            self.bytes.push(self.pending as u8);
        }
        self.bytes
    }
}

/// The smallest GIF minimum code size for a palette of `entries` entries (at least 2).
pub(super) fn min_code_size(entries: usize) -> u8 {
    entries.max(4).next_power_of_two().trailing_zeros() as u8
}

/// The palette the compressor chooses from.
pub(super) struct LossyLzw {
    /// R, G, B of every palette entry, padded to 256 entries (the padding is never looked up:
    /// only entries of the palette are mapped, kept or learnt), so lookups need no bounds check.
    colours: Box<[[u8; 3]; 256]>,
    /// The keep or transparent entry, judged by [`PixelTarget::special_error`].
    special: Option<u8>,
    min_code_size: u8,
}

impl LossyLzw {
    pub(super) fn new(colours: &[[u8; 3]], special: Option<u8>) -> LossyLzw {
        let mut padded = Box::new([[0u8; 3]; 256]);
        for (slot, colour) in padded.iter_mut().zip(colours) {
            *slot = *colour;
        }
        LossyLzw {
            colours: padded,
            special,
            min_code_size: min_code_size(colours.len()),
        }
    }

    pub(super) fn min_code_size(&self) -> u8 {
        self.min_code_size
    }

    /// The error of entry `index` at `target`, or `None` where it may not be written there.
    #[inline]
    fn error_at(&self, index: u8, target: &PixelTarget) -> Option<u16> {
        if Some(index) == self.special {
            return u16::try_from(target.special_error).ok();
        }
        let [r, g, b] = self.colours[usize::from(index)];
        let error = r
            .abs_diff(target.rgb[0])
            .max(g.abs_diff(target.rgb[1]))
            .max(b.abs_diff(target.rgb[2]));
        (i16::from(error) <= target.limit).then_some(u16::from(error))
    }

    /// Compresses one strip of pixels into `out` and writes the entry chosen for each pixel
    /// into `chosen`. The first strip of a frame opens with a clear code; each strip ends with
    /// a clear code (the next strip starts from an empty dictionary) or, the last, with the
    /// end code.
    pub(super) fn compress_strip(
        &self,
        targets: &[PixelTarget],
        first: bool,
        last: bool,
        chosen: &mut [u8],
    ) -> Bits {
        let mut dictionary = Dictionary::new(self.min_code_size);
        let mut search = Search::default();
        let mut out = Bits::default();
        let clear = u32::from(dictionary.clear);
        if first {
            out.push(clear, dictionary.code_size);
        }
        let Some(opening) = self.longest_string(&dictionary, &mut search, targets) else {
            // An empty strip writes only its closing code.
            out.push(clear + u32::from(last), dictionary.code_size);
            return out;
        };
        let mut current = opening;
        let mut pos = dictionary.spell(current, &mut chosen[..]);
        while pos < targets.len() {
            if dictionary.is_full() {
                out.push(u32::from(current), dictionary.code_size);
                out.push(clear, dictionary.code_size);
                dictionary.clear();
                current = self
                    .longest_string(&dictionary, &mut search, &targets[pos..])
                    .unwrap_or(0);
                pos += dictionary.spell(current, &mut chosen[pos..]);
                continue;
            }
            let next = self
                .longest_string(&dictionary, &mut search, &targets[pos..])
                .unwrap_or(0);
            out.push(u32::from(current), dictionary.code_size);
            let first_entry = dictionary.first[usize::from(next)];
            dictionary.learn(current, first_entry);
            current = next;
            pos += dictionary.spell(current, &mut chosen[pos..]);
        }
        out.push(u32::from(current), dictionary.code_size);
        // Reading that code, a decoder learns one more string, and may widen its codes for it.
        if usize::from(dictionary.next_code) >= 1 << dictionary.code_size
            && dictionary.code_size < u32::from(MAX_CODE_SIZE)
        {
            dictionary.code_size += 1;
        }
        out.push(clear + u32::from(last), dictionary.code_size);
        out
    }

    /// The code of the longest string the dictionary knows that may open `targets`, or `None`
    /// when `targets` is empty.
    fn longest_string(
        &self,
        dictionary: &Dictionary,
        search: &mut Search,
        targets: &[PixelTarget],
    ) -> Option<u16> {
        let target = targets.first()?;
        search.stack.clear();
        search.best = None;
        // The strings of one entry: the mapped one (always allowed) and the special one.
        let mapped_error = self.error_at(target.mapped, target).unwrap_or(0);
        search
            .stack
            .push((u16::from(target.mapped), 1, u32::from(mapped_error)));
        if let Some(special) = self.special
            && special != target.mapped
            && let Some(error) = self.error_at(special, target)
        {
            search.stack.push((u16::from(special), 1, u32::from(error)));
        }
        let mut visits = 0;
        while let Some((code, len, error)) = search.stack.pop() {
            let better = match search.best {
                None => true,
                Some((_, best_len, best_error)) => {
                    len > best_len || (len == best_len && error < best_error)
                }
            };
            if better {
                search.best = Some((code, len, error));
            }
            visits += 1;
            if visits >= SEARCH_BUDGET {
                break;
            }
            let Some(target) = targets.get(len as usize) else {
                continue;
            };
            let mut child = dictionary.first_child[usize::from(code)];
            while child != NO_CODE {
                let entry = dictionary.suffix[usize::from(child)];
                if let Some(child_error) = self.error_at(entry, target) {
                    search
                        .stack
                        .push((child, len + 1, error + u32::from(child_error)));
                }
                child = dictionary.next_sibling[usize::from(child)];
            }
        }
        search.best.map(|(code, _, _)| code)
    }
}

/// Marks the end of a child list (code 0 is never a child: children are learnt codes).
const NO_CODE: u16 = 0;

/// The working stack of [`LossyLzw::longest_string`]: (code, pixels, summed error).
#[derive(Default)]
struct Search {
    stack: Vec<(u16, u32, u32)>,
    best: Option<(u16, u32, u32)>,
}

/// The strings an LZW compressor and its decoder both know, as a tree: each learnt code is
/// its parent's string plus one entry.
struct Dictionary {
    clear: u16,
    /// The first code learnt as an extension of each code, then each code's next sibling.
    first_child: Vec<u16>,
    next_sibling: Vec<u16>,
    /// Each code's parent, last entry, first entry and length in pixels.
    parent: Vec<u16>,
    suffix: Vec<u8>,
    first: Vec<u8>,
    len: Vec<u32>,
    next_code: u16,
    code_size: u32,
}

impl Dictionary {
    fn new(min_code_size: u8) -> Dictionary {
        let clear = 1u16 << min_code_size;
        let mut dictionary = Dictionary {
            clear,
            first_child: vec![NO_CODE; MAX_CODES],
            next_sibling: vec![NO_CODE; MAX_CODES],
            parent: vec![0; MAX_CODES],
            suffix: vec![0; MAX_CODES],
            first: vec![0; MAX_CODES],
            len: vec![1; MAX_CODES],
            next_code: clear + 2,
            code_size: u32::from(min_code_size) + 1,
        };
        for code in 0..clear {
            dictionary.suffix[usize::from(code)] = code as u8;
            dictionary.first[usize::from(code)] = code as u8;
        }
        dictionary
    }

    fn is_full(&self) -> bool {
        usize::from(self.next_code) >= MAX_CODES
    }

    /// Forgets every learnt string, as a clear code tells the decoder to.
    fn clear(&mut self) {
        self.first_child[..usize::from(self.next_code)].fill(NO_CODE);
        self.next_code = self.clear + 2;
        self.code_size = self.clear.trailing_zeros() + 1;
    }

    /// Learns `code`'s string plus `entry` as the next code, widening codes as the decoder does.
    fn learn(&mut self, code: u16, entry: u8) {
        let new = self.next_code;
        let (at, parent) = (usize::from(new), usize::from(code));
        self.parent[at] = code;
        self.suffix[at] = entry;
        self.first[at] = self.first[parent];
        self.len[at] = self.len[parent] + 1;
        self.next_sibling[at] = self.first_child[parent];
        self.first_child[at] = NO_CODE;
        self.first_child[parent] = new;
        self.next_code += 1;
        if usize::from(self.next_code) > 1 << self.code_size
            && self.code_size < u32::from(MAX_CODE_SIZE)
        {
            self.code_size += 1;
        }
    }

    /// Writes `code`'s string into the start of `out`, returning its length.
    fn spell(&self, code: u16, out: &mut [u8]) -> usize {
        let len = self.len[usize::from(code)] as usize;
        let mut code = code;
        for slot in out[..len].iter_mut().rev() {
            *slot = self.suffix[usize::from(code)];
            code = self.parent[usize::from(code)];
        }
        len
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    /// A deterministic stream of pseudo-random numbers.
    fn noise(seed: u64) -> impl FnMut() -> u32 {
        let mut state = seed;
        move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as u32
        }
    }

    /// `count` colours far apart (at least 4 levels in red).
    fn palette(count: usize) -> Vec<[u8; 3]> {
        (0..count)
            .map(|i| [(i * 255 / count.max(2)) as u8, (i * 7 % 256) as u8, 100])
            .collect()
    }

    /// Compresses `targets` in strips as the GIF sink does, returning the frame's LZW data
    /// (led by the minimum code size) and the entries chosen.
    fn compress(compressor: &LossyLzw, targets: &[PixelTarget]) -> (Vec<u8>, Vec<u8>) {
        let mut bits = Bits::default();
        let mut chosen = vec![0; targets.len()];
        let strips = targets.len().div_ceil(STRIP_PIXELS);
        for (strip, (targets, chosen)) in targets
            .chunks(STRIP_PIXELS)
            .zip(chosen.chunks_mut(STRIP_PIXELS))
            .enumerate()
        {
            bits.append(&compressor.compress_strip(
                targets,
                strip == 0,
                strip + 1 == strips,
                chosen,
            ));
        }
        let mut lzw = vec![compressor.min_code_size()];
        lzw.extend(bits.into_bytes());
        (lzw, chosen)
    }

    /// Decodes one frame of `width` x `height` palette indices with the `gif` crate.
    fn decode(colours: &[[u8; 3]], lzw: &[u8], width: u16, height: u16) -> Vec<u8> {
        let mut encoder = gif::Encoder::new(Vec::new(), width, height, &colours.concat()).unwrap();
        encoder
            .write_lzw_pre_encoded_frame(&gif::Frame {
                width,
                height,
                buffer: Cow::Borrowed(lzw),
                ..gif::Frame::default()
            })
            .unwrap();
        let bytes = encoder.into_inner().unwrap();
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = options.read_info(bytes.as_slice()).unwrap();
        let frame = decoder.read_next_frame().unwrap().unwrap();
        frame.buffer.to_vec()
    }

    /// Targets that allow exactly `indices` (the colours are far apart, the bound is 0).
    fn exact_targets(colours: &[[u8; 3]], indices: &[u8]) -> Vec<PixelTarget> {
        indices
            .iter()
            .map(|&index| PixelTarget {
                rgb: colours[usize::from(index)],
                mapped: index,
                limit: 0,
                special_error: -1,
            })
            .collect()
    }

    /// With no freedom the compressor is lossless: noise (the dictionary fills with 12-bit
    /// codes and is cleared), long runs (long strings), mixtures, over several strips, for
    /// every code size, decode to exactly the indices given.
    #[test]
    fn without_freedom_every_stream_decodes_to_its_indices() {
        let mut random = noise(7);
        for entries in [2, 3, 4, 5, 16, 17, 100, 256] {
            let colours = palette(entries);
            let compressor = LossyLzw::new(&colours, None);
            let (width, height) = (397u16, 431u16);
            let pixels = usize::from(width) * usize::from(height);
            let noisy: Vec<u8> = (0..pixels)
                .map(|_| (random() % entries as u32) as u8)
                .collect();
            let runs: Vec<u8> = (0..pixels).map(|i| ((i / 977) % entries) as u8).collect();
            let mixed: Vec<u8> = (0..pixels)
                .map(|i| match (i / 5000) % 3 {
                    0 => noisy[i],
                    1 => runs[i],
                    _ => (i % entries) as u8,
                })
                .collect();
            for indices in [noisy, runs, mixed] {
                let (lzw, chosen) = compress(&compressor, &exact_targets(&colours, &indices));
                assert_eq!(chosen, indices, "{entries} entries");
                assert!(
                    decode(&colours, &lzw, width, height) == indices,
                    "{entries} entries"
                );
            }
        }
    }

    /// With freedom, every pixel decodes to an entry its target allows (the special one only
    /// where its error is given), the entry reported as chosen; and the freedom buys bytes.
    #[test]
    fn lossy_streams_decode_within_every_targets_bound() {
        let mut random = noise(11);
        let colours: Vec<[u8; 3]> = (0..255u32)
            .map(|i| {
                [
                    (i * 3 % 256) as u8,
                    (i * 5 % 256) as u8,
                    (i * 11 % 256) as u8,
                ]
            })
            .chain([[0, 0, 0]])
            .collect();
        let keep = 255;
        let compressor = LossyLzw::new(&colours, Some(keep));
        let (width, height) = (320u16, 409u16);
        let targets: Vec<PixelTarget> = (0..usize::from(width) * usize::from(height))
            .map(|i| {
                let mapped = ((i / 7 + random() as usize % 3) % 255) as u8;
                let jitter = (random() % 5) as u8;
                let [r, g, b] = colours[usize::from(mapped)];
                PixelTarget {
                    rgb: [r.saturating_add(jitter), g, b.saturating_sub(jitter)],
                    mapped,
                    limit: i16::from(jitter) + (random() % 24) as i16,
                    special_error: if random().is_multiple_of(2) {
                        -1
                    } else {
                        (random() % 8) as i16
                    },
                }
            })
            .collect();
        let (lzw, chosen) = compress(&compressor, &targets);
        let shown = decode(&colours, &lzw, width, height);
        assert!(shown == chosen);
        for (target, &index) in targets.iter().zip(&shown) {
            assert!(
                compressor.error_at(index, target).is_some(),
                "{index} written for {target:?}"
            );
        }
        let exact: Vec<u8> = targets.iter().map(|target| target.mapped).collect();
        let (lossless, _) = compress(&compressor, &exact_targets(&colours, &exact));
        assert!(
            lzw.len() * 10 < lossless.len() * 9,
            "lossy {} bytes, lossless {}",
            lzw.len(),
            lossless.len()
        );
    }
}
