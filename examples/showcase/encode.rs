//! Picture output: one fixed palette per scene (median cut over every frame), animated
//! GIFs that store only what changed since the previous frame, and PNG stills.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

/// Palette index reserved for "unchanged since the previous frame".
pub const TRANSPARENT: u8 = 255;
/// Colours available to the picture (index 255 is the transparent one).
pub const MAX_COLOURS: usize = 255;

/// 5 bits per channel: the histogram and lookup-table cell of an RGB colour.
fn cell(c: [u8; 3]) -> usize {
    ((c[0] as usize >> 3) << 10) | ((c[1] as usize >> 3) << 5) | (c[2] as usize >> 3)
}

/// Counts of colours in 5-bit cells, accumulated over frames.
pub struct Histogram {
    count: Vec<u32>,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            count: vec![0; 1 << 15],
        }
    }
}

impl Histogram {
    pub fn add(&mut self, rgb8: &[u8]) {
        for p in rgb8.chunks_exact(3) {
            let c = &mut self.count[cell([p[0], p[1], p[2]])];
            *c = c.saturating_add(1);
        }
    }

    /// At most `max` colours by median cut: the box with the most pixels (among
    /// those holding more than one cell) is split at the weighted median of its
    /// widest channel; each box gives its weighted mean colour.
    pub fn median_cut(&self, max: usize) -> Vec<[u8; 3]> {
        let cells: Vec<(usize, u32)> = self
            .count
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(i, &n)| (i, n))
            .collect();
        let chan = |i: usize, k: usize| (i >> (10 - 5 * k)) & 31;
        let mut boxes: Vec<Vec<(usize, u32)>> = vec![cells];
        while boxes.len() < max {
            let pick = boxes
                .iter()
                .enumerate()
                .filter(|(_, b)| b.len() > 1)
                .max_by_key(|(_, b)| b.iter().map(|&(_, n)| n as u64).sum::<u64>())
                .map(|(k, _)| k);
            let Some(k) = pick else { break };
            let mut b = boxes.swap_remove(k);
            let widest = (0..3)
                .max_by_key(|&ch| {
                    let (lo, hi) = b.iter().fold((31, 0), |(lo, hi), &(i, _)| {
                        (lo.min(chan(i, ch)), hi.max(chan(i, ch)))
                    });
                    hi - lo
                })
                .unwrap_or(0);
            b.sort_by_key(|&(i, _)| chan(i, widest));
            let total: u64 = b.iter().map(|&(_, n)| n as u64).sum();
            let mut acc = 0u64;
            let mut split = 1;
            for (j, &(_, n)) in b.iter().enumerate() {
                acc += n as u64;
                if acc * 2 >= total {
                    split = (j + 1).clamp(1, b.len() - 1);
                    break;
                }
            }
            let tail = b.split_off(split);
            boxes.push(b);
            boxes.push(tail);
        }
        boxes
            .iter()
            .filter(|b| !b.is_empty())
            .map(|b| {
                let total: f64 = b.iter().map(|&(_, n)| n as f64).sum();
                let mean = |ch: usize| {
                    let s: f64 = b
                        .iter()
                        .map(|&(i, n)| (chan(i, ch) as f64 * 8.0 + 4.0) * n as f64)
                        .sum();
                    (s / total).round().clamp(0.0, 255.0) as u8
                };
                [mean(0), mean(1), mean(2)]
            })
            .collect()
    }
}

/// Maps RGB colours to the nearest palette entry through a 5-bit lookup table.
pub struct Quantiser {
    pub palette: Vec<[u8; 3]>,
    lut: Vec<u8>,
}

impl Quantiser {
    pub fn new(palette: Vec<[u8; 3]>) -> Quantiser {
        assert!(!palette.is_empty() && palette.len() <= MAX_COLOURS);
        let lut = (0..1usize << 15)
            .map(|i| {
                let c = [
                    ((i >> 10) & 31) as i32 * 8 + 4,
                    ((i >> 5) & 31) as i32 * 8 + 4,
                    (i & 31) as i32 * 8 + 4,
                ];
                let mut best = (i32::MAX, 0u8);
                for (k, p) in palette.iter().enumerate() {
                    let d: i32 = (0..3).map(|ch| (c[ch] - p[ch] as i32).pow(2)).sum();
                    if d < best.0 {
                        best = (d, k as u8);
                    }
                }
                best.1
            })
            .collect();
        Quantiser { palette, lut }
    }

    pub fn index(&self, rgb8: &[u8]) -> Vec<u8> {
        rgb8.chunks_exact(3)
            .map(|p| self.lut[cell([p[0], p[1], p[2]])])
            .collect()
    }

    /// The palette as GIF wants it: 256 entries of r, g, b.
    fn gif_palette(&self) -> Vec<u8> {
        let mut out: Vec<u8> = self.palette.iter().flatten().copied().collect();
        out.resize(256 * 3, 0);
        out
    }
}

/// Writes an endlessly looping GIF of `frames` (8-bit RGB, `width`×`height`), one
/// palette for all, each frame shown for `delays_cs[k]` hundredths of a second.
/// Frames after the first store only the bounding box of the pixels whose palette
/// index changed, with unchanged pixels inside it transparent.
pub fn write_gif(
    path: &Path,
    width: u32,
    height: u32,
    frames: &[Vec<u8>],
    delays_cs: &[u16],
    quantiser: &Quantiser,
) -> std::io::Result<()> {
    let err = |e: gif::EncodingError| std::io::Error::other(e.to_string());
    let file = BufWriter::new(File::create(path)?);
    let (w16, h16) = (width as u16, height as u16);
    let mut enc = gif::Encoder::new(file, w16, h16, &quantiser.gif_palette()).map_err(err)?;
    enc.set_repeat(gif::Repeat::Infinite).map_err(err)?;
    let mut prev: Option<Vec<u8>> = None;
    let w = width as usize;
    for (rgb, &delay) in frames.iter().zip(delays_cs) {
        let idx = quantiser.index(rgb);
        let mut frame = gif::Frame {
            delay,
            dispose: gif::DisposalMethod::Keep,
            ..gif::Frame::default()
        };
        match &prev {
            None => {
                frame.width = w16;
                frame.height = h16;
                frame.buffer = idx.clone().into();
            }
            Some(p) => {
                let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
                for (k, (a, b)) in idx.iter().zip(p).enumerate() {
                    if a != b {
                        let (x, y) = (k % w, k / w);
                        x0 = x0.min(x);
                        y0 = y0.min(y);
                        x1 = x1.max(x);
                        y1 = y1.max(y);
                    }
                }
                if x0 == usize::MAX {
                    (x0, y0, x1, y1) = (0, 0, 0, 0);
                }
                let mut buf = Vec::with_capacity((x1 - x0 + 1) * (y1 - y0 + 1));
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        let k = y * w + x;
                        buf.push(if idx[k] == p[k] { TRANSPARENT } else { idx[k] });
                    }
                }
                frame.left = x0 as u16;
                frame.top = y0 as u16;
                frame.width = (x1 - x0 + 1) as u16;
                frame.height = (y1 - y0 + 1) as u16;
                frame.transparent = Some(TRANSPARENT);
                frame.buffer = buf.into();
            }
        }
        enc.write_frame(&frame).map_err(err)?;
        prev = Some(idx);
    }
    enc.into_inner().map_err(err)?;
    Ok(())
}

/// Writes an 8-bit RGB PNG.
pub fn write_png(path: &Path, width: u32, height: u32, rgb8: &[u8]) -> std::io::Result<()> {
    let err = |e: png::EncodingError| std::io::Error::other(e.to_string());
    let file = BufWriter::new(File::create(path)?);
    let mut enc = png::Encoder::new(file, width, height);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::High);
    let mut writer = enc.write_header().map_err(err)?;
    writer.write_image_data(rgb8).map_err(err)?;
    writer.finish().map_err(err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four flat colours give a four-entry palette that reproduces them exactly
    /// (to the 5-bit cell centre) and maps each pixel back to its own entry.
    #[test]
    fn median_cut_separates_distinct_colours() {
        let colours = [[8u8, 8, 8], [248, 8, 8], [8, 248, 8], [8, 8, 248]];
        let mut h = Histogram::default();
        let img: Vec<u8> = colours
            .iter()
            .flat_map(|c| std::iter::repeat_n(*c, 10).flatten())
            .collect();
        h.add(&img);
        let pal = h.median_cut(16);
        assert_eq!(pal.len(), 4);
        let q = Quantiser::new(pal.clone());
        let idx = q.index(&img);
        for (k, c) in colours.iter().enumerate() {
            let p = pal[idx[k * 10] as usize];
            for ch in 0..3 {
                assert!((p[ch] as i32 - c[ch] as i32).abs() <= 4, "{p:?} vs {c:?}");
            }
        }
    }

    #[test]
    fn median_cut_respects_the_colour_limit() {
        let mut h = Histogram::default();
        let img: Vec<u8> = (0..=255u8).flat_map(|v| [v, 255 - v, v / 2]).collect();
        h.add(&img);
        assert!(h.median_cut(8).len() <= 8);
        assert!(h.median_cut(255).len() <= 255);
    }
}
