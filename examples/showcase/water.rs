//! Water for the rasteriser: screen-space fluid rendering (van der Laan, Green and
//! Sainz, "Screen space fluid rendering with curvature flow", 2009) over the fluid's
//! ellipsoids (Yu & Turk 2013, read back from the world), with spray, foam and bubbles
//! drawn as soft dots.
//!
//! 1. Splat: each ellipsoid is ray-cast exactly at every pixel of its screen bounds
//!    (the ray through the pixel centre, in the ellipsoid's unit-sphere frame), depth-
//!    tested against the solids already drawn. Per pixel: the nearest front depth, the
//!    thickness of water in front of the solids (the sum of the chords), and a colour
//!    weighted by chord.
//! 2. Smooth: the front depth is filtered by a separable bilateral filter (a Gaussian
//!    over a few particle radii on screen, whose weights fall off with depth
//!    difference), so that neighbouring ellipsoids merge into one surface while
//!    separate sheets stay apart; thickness and colour get the plain Gaussian.
//! 3. Shade: normals from the smoothed depth (the smaller one-sided difference, so
//!    silhouettes do not bend the surface), then what is behind the water attenuated
//!    by Beer–Lambert absorption through the thickness, the water's own colour in what
//!    it absorbed (Lambert-lit), a Schlick Fresnel reflection of a sky gradient (bright
//!    at grazing angles: the rim) and a Blinn–Phong highlight. No refraction.
//! 4. Dots: spray in front of the water, foam just under its surface, bubbles fading
//!    with their depth below it, each a soft white disc depth-tested against the solids.

use sinew::Vec3;

use super::{Camera, Canvas, Light, Rgb};

/// One ellipsoid to splat: centre and three orthogonal axes (direction × radius, m),
/// and the water's colour there.
#[derive(Clone, Copy, Debug)]
pub struct Splat {
    pub center: Vec3,
    pub axes: [Vec3; 3],
    pub colour: Rgb,
}

/// A soft white dot (a diffuse particle): where (m), its radius (m), its opacity in
/// [0, 1], and how far (m) below the water's surface it still shows (0: only in front
/// of the water; it fades out over that depth).
#[derive(Clone, Copy, Debug)]
pub struct Dot {
    pub position: Vec3,
    pub radius: f32,
    pub opacity: f32,
    pub under: f32,
}

/// How water looks.
#[derive(Clone, Copy, Debug)]
pub struct WaterLook {
    /// Beer–Lambert absorption per channel (1/m): light through d m of water keeps
    /// exp(−k d) of what is behind it.
    pub absorption: [f32; 3],
    /// Thickness (m) added to every pixel of water before the absorption, so that
    /// thin sheets, streams and drops still read as water rather than as glass.
    pub body: f32,
    /// The smoothing filter's radius, in screen radii of the nearest particle.
    pub blur: f32,
    /// The sky the surface reflects: at the zenith and at the horizon.
    pub zenith: Rgb,
    pub horizon: Rgb,
    /// Fresnel reflectance looking straight at the surface (water: 0.02).
    pub f0: f32,
    /// Strength of the light's highlight.
    pub specular: f32,
    /// Colour of the dots.
    pub foam: Rgb,
    /// Levels of the light, the Fresnel term and the optical depth, and a quarter of
    /// the levels of each colour channel (0: smooth). A few flat bands keep the water
    /// calm from frame to frame and the GIFs small.
    pub bands: u32,
}

impl WaterLook {
    /// Clear water that reddens what is behind it less than it blues it: half the
    /// red is gone after `depth` m.
    pub fn clear(depth: f32) -> WaterLook {
        let k = std::f32::consts::LN_2 / depth;
        WaterLook {
            absorption: [k, 0.55 * k, 0.3 * k],
            body: 0.0,
            blur: 4.0,
            zenith: Rgb::hex(0x6d8fb8),
            horizon: Rgb::hex(0xd8e6f2),
            f0: 0.02,
            specular: 0.7,
            foam: Rgb::hex(0xf6fbff),
            bands: 0,
        }
    }
}

/// What the splats leave per pixel.
struct Layers {
    w: usize,
    h: usize,
    /// Nearest front depth (m along the view axis; infinite where no water).
    front: Vec<f32>,
    /// Water in front of the solids (m).
    thick: Vec<f32>,
    /// Colour × chord and the chord sum.
    colour: Vec<[f32; 4]>,
    /// Screen radius (pixels) of the particle whose front is nearest.
    radius: Vec<f32>,
}

/// The ray direction through pixel centre (px, py), scaled so that its component
/// along the view axis is 1 (a point at parameter t lies at view depth t).
fn ray(camera: &Camera, px: f32, py: f32) -> Vec3 {
    camera.forward + camera.right * ((px - camera.cx) / camera.focal)
        - camera.up * ((py - camera.cy) / camera.focal)
}

/// The solids' view depth at pixel k (infinite where none).
fn solid_depth(canvas: &Canvas, k: usize) -> f32 {
    let d = canvas.inv_depth[k];
    if d > 0.0 {
        1.0 / d
    } else {
        f32::INFINITY
    }
}

fn splat_all(canvas: &Canvas, camera: &Camera, splats: &[Splat]) -> Layers {
    let (w, h) = (canvas.width as usize, canvas.height as usize);
    let n = w * h;
    let mut l = Layers {
        w,
        h,
        front: vec![f32::INFINITY; n],
        thick: vec![0.0; n],
        colour: vec![[0.0; 4]; n],
        radius: vec![0.0; n],
    };
    for s in splats {
        let len = s.axes.map(|a| a.length());
        let rmax = len[0].max(len[1]).max(len[2]);
        if len.iter().any(|&r| r.is_nan() || r <= 1e-6) {
            continue;
        }
        let Some((sx, sy, z)) = camera.project(s.center) else {
            continue;
        };
        if z - rmax < super::NEAR {
            continue;
        }
        // A sphere of radius rmax at depth z spans at most f rmax / (z − rmax) pixels
        // from its centre's projection.
        let bound = camera.focal * rmax / (z - rmax);
        let mean_px = camera.focal * (len[0] + len[1] + len[2]) / (3.0 * z);
        // Rows of the inverse of [a0 a1 a2] (orthogonal columns): a_k / |a_k|².
        let inv = [0, 1, 2].map(|k| s.axes[k] / (len[k] * len[k]));
        let to_local = |v: Vec3| Vec3::new(inv[0].dot(v), inv[1].dot(v), inv[2].dot(v));
        let o = to_local(camera.eye - s.center);
        let (df, dr, du) = (
            to_local(camera.forward),
            to_local(camera.right / camera.focal),
            to_local(camera.up / camera.focal),
        );
        let c = o.length_squared() - 1.0;
        let xs = Canvas::span(sx - bound, sx + bound, canvas.width);
        let ys = Canvas::span(sy - bound, sy + bound, canvas.height);
        for j in ys {
            let v = j as f32 + 0.5 - camera.cy;
            let row = df - du * v;
            for i in xs.clone() {
                let d = row + dr * (i as f32 + 0.5 - camera.cx);
                let a = d.length_squared();
                let b = o.dot(d);
                let disc = b * b - a * c;
                if disc <= 0.0 {
                    continue;
                }
                let root = disc.sqrt();
                let (t0, t1) = ((-b - root) / a, (-b + root) / a);
                let k = j * w + i;
                let solid = solid_depth(canvas, k);
                if t0 >= solid || t0 < super::NEAR {
                    continue;
                }
                let chord = t1.min(solid) - t0;
                l.thick[k] += chord;
                let acc = &mut l.colour[k];
                acc[0] += s.colour.0 * chord;
                acc[1] += s.colour.1 * chord;
                acc[2] += s.colour.2 * chord;
                acc[3] += chord;
                if t0 < l.front[k] {
                    l.front[k] = t0;
                    l.radius[k] = mean_px;
                }
            }
        }
    }
    l
}

/// One pass of the separable filter along x or y: the depth bilaterally (Gaussian in
/// space, σ half the filter's radius; a (1 − x)² fall-off in depth difference over
/// three times the particle's world radius), thickness and colour by the plain
/// Gaussian, over the pixels that hold water. `tables[r]` holds the Gaussian of
/// radius r pixels.
fn filter_pass(
    l: &mut Layers,
    look: &WaterLook,
    camera: &Camera,
    along_x: bool,
    tables: &mut Vec<Vec<f32>>,
) {
    let (w, h) = (l.w, l.h);
    let mut front = l.front.clone();
    let mut thick = l.thick.clone();
    let mut colour = l.colour.clone();
    for j in 0..h {
        for i in 0..w {
            let k = j * w + i;
            let z = l.front[k];
            if !z.is_finite() {
                continue;
            }
            let reach = (look.blur * l.radius[k]).ceil().max(1.0) as usize;
            while tables.len() <= reach {
                let r = tables.len().max(1) as f32;
                let inv = 1.0 / (2.0 * (0.5 * r) * (0.5 * r));
                let n = tables.len() as isize;
                tables.push((-n..=n).map(|o| (-(o * o) as f32 * inv).exp()).collect());
            }
            let g = &tables[reach];
            let range = 3.0 * l.radius[k] * z / camera.focal;
            let inv_r = 1.0 / (range * range).max(1e-12);
            let (mut zw, mut zs, mut gw, mut ts) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
            let mut cs = [0.0f32; 4];
            let (pos, len) = if along_x { (i, w) } else { (j, h) };
            let lo = pos.saturating_sub(reach);
            let hi = (pos + reach).min(len - 1);
            for p in lo..=hi {
                let q = if along_x { j * w + p } else { p * w + i };
                let g = g[p + reach - pos];
                gw += g;
                ts += g * l.thick[q];
                for (c, v) in cs.iter_mut().zip(l.colour[q]) {
                    *c += g * v;
                }
                let dz = l.front[q] - z;
                // Infinite (no water) gives NaN or infinity here: no weight.
                let x = dz * dz * inv_r;
                if x < 1.0 {
                    let b = (1.0 - x) * (1.0 - x) * g;
                    zw += b;
                    zs += b * l.front[q];
                }
            }
            front[k] = zs / zw;
            thick[k] = ts / gw;
            colour[k] = cs.map(|c| c / gw);
        }
    }
    l.front = front;
    l.thick = thick;
    l.colour = colour;
}

/// The view-space point (world coordinates) of pixel (i, j) at depth z.
fn point(camera: &Camera, i: usize, j: usize, z: f32) -> Vec3 {
    camera.eye + ray(camera, i as f32 + 0.5, j as f32 + 0.5) * z
}

/// The surface normal at pixel (i, j) from the smoothed depth: along each screen axis
/// the one-sided difference with the smaller depth step (a silhouette does not bend
/// the surface), facing the eye.
fn normal(l: &Layers, camera: &Camera, i: usize, j: usize) -> Vec3 {
    let k = j * l.w + i;
    let z = l.front[k];
    let p = point(camera, i, j, z);
    let side = |di: isize, dj: isize| -> Option<Vec3> {
        let (ii, jj) = (i as isize + di, j as isize + dj);
        if ii < 0 || jj < 0 || ii >= l.w as isize || jj >= l.h as isize {
            return None;
        }
        let zq = l.front[jj as usize * l.w + ii as usize];
        zq.is_finite()
            .then(|| (point(camera, ii as usize, jj as usize, zq) - p) * (di + dj) as f32)
    };
    let pick = |a: Option<Vec3>, b: Option<Vec3>, flat: Vec3| match (a, b) {
        (Some(a), Some(b)) => {
            if a.dot(camera.forward).abs() < b.dot(camera.forward).abs() {
                a
            } else {
                b
            }
        }
        (Some(a), None) | (None, Some(a)) => a,
        (None, None) => flat,
    };
    let px = z / camera.focal;
    let dx = pick(side(1, 0), side(-1, 0), camera.right * px);
    let dy = pick(side(0, 1), side(0, -1), -camera.up * px);
    let n = dy.cross(dx).normalize_or_zero();
    if n.dot(camera.eye - p) < 0.0 {
        -n
    } else {
        n
    }
}

/// Draws the water of `splats` over what the canvas holds (solids hide it, and show
/// through it where they are behind), then `dots`. The water's front is written into
/// the depth buffer, so that what is drawn later is hidden by it.
pub fn draw_water(
    canvas: &mut Canvas,
    camera: &Camera,
    light: &Light,
    look: &WaterLook,
    splats: &[Splat],
    dots: &[Dot],
) {
    let band = |x: f32| {
        if look.bands == 0 {
            x
        } else {
            (x * look.bands as f32).round() / look.bands as f32
        }
    };
    let mut l = splat_all(canvas, camera, splats);
    let mut tables = Vec::new();
    filter_pass(&mut l, look, camera, true, &mut tables);
    filter_pass(&mut l, look, camera, false, &mut tables);
    let solid: Vec<f32> = (0..l.w * l.h).map(|k| solid_depth(canvas, k)).collect();
    let least = look
        .absorption
        .iter()
        .copied()
        .fold(f32::INFINITY, f32::min);
    for j in 0..l.h {
        for i in 0..l.w {
            let k = j * l.w + i;
            let z = l.front[k];
            if !z.is_finite() || l.colour[k][3] <= 0.0 {
                continue;
            }
            let n = normal(&l, camera, i, j);
            let p = point(camera, i, j, z);
            let v = camera.towards_eye(p);
            let cos = n.dot(v).clamp(0.0, 1.0);
            let fresnel = band(look.f0 + (1.0 - look.f0) * (1.0 - cos).powi(5));
            let r = n * (2.0 * n.dot(v)) - v;
            let sky = if r.y >= 0.0 {
                look.horizon.lerp(look.zenith, r.y.sqrt())
            } else {
                look.horizon.scale(0.55)
            };
            let acc = l.colour[k];
            let albedo = Rgb(acc[0] / acc[3], acc[1] / acc[3], acc[2] / acc[3]);
            // Diffuse light from the normal half-way to the eye: the particles' bumps
            // that the smoothing leaves show in the reflection, not in the body.
            let lit = band(light.lambert((n + v).normalize_or_zero()));
            let behind = canvas.color[k];
            // The optical depth of the least absorbed channel, in bands of 1/bands.
            let depth = band(least * (l.thick[k] + look.body));
            let t = look.absorption.map(|a| (-a / least * depth).exp());
            let through = Rgb(
                behind.0 * t[0] + albedo.0 * lit * (1.0 - t[0]),
                behind.1 * t[1] + albedo.1 * lit * (1.0 - t[1]),
                behind.2 * t[2] + albedo.2 * lit * (1.0 - t[2]),
            );
            let half = (light.dir + v).normalize_or_zero();
            let spec = look.specular * band(n.dot(half).max(0.0).powi(96));
            let c = through.lerp(sky, fresnel);
            let c = Rgb(c.0 + spec, c.1 + spec, c.2 + spec);
            canvas.color[k] = if look.bands == 0 {
                c
            } else {
                // Posterised to 4 × bands levels a channel.
                let q = |x: f32| (x * 4.0 * look.bands as f32).round() / (4.0 * look.bands as f32);
                Rgb(q(c.0), q(c.1), q(c.2))
            };
            canvas.inv_depth[k] = 1.0 / z;
        }
    }
    for d in dots {
        draw_dot(canvas, camera, look.foam, d, &l.front, &solid);
    }
}

/// One soft dot, hidden by solids in front of it and by water more than `under` in
/// front of it (fading with the depth below the water's surface).
fn draw_dot(canvas: &mut Canvas, camera: &Camera, c: Rgb, d: &Dot, water: &[f32], solid: &[f32]) {
    let Some((x, y, z)) = camera.project(d.position) else {
        return;
    };
    let r = (d.radius * camera.pixels_per_metre(z)).max(0.9);
    let w = canvas.width as usize;
    for j in Canvas::span(y - r, y + r, canvas.height) {
        let dy = j as f32 + 0.5 - y;
        for i in Canvas::span(x - r, x + r, canvas.width) {
            let dx = i as f32 + 0.5 - x;
            let q = 1.0 - (dx * dx + dy * dy) / (r * r);
            let k = j * w + i;
            if q <= 0.0 || z >= solid[k] {
                continue;
            }
            let below = z - water[k];
            let seen = if below <= 0.0 {
                1.0
            } else if below < d.under {
                1.0 - below / d.under
            } else {
                0.0
            };
            let a = (d.opacity * seen * q.sqrt()).clamp(0.0, 1.0);
            canvas.color[k] = canvas.color[k].lerp(c, a);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BG: Rgb = Rgb(0.0, 0.0, 0.0);
    const BLUE: Rgb = Rgb(0.1, 0.3, 0.8);

    fn camera(n: u32) -> Camera {
        Camera::look_at(Vec3::new(0.0, 0.0, 2.0), Vec3::ZERO, 40.0, n, n)
    }

    fn splat(axes: [Vec3; 3]) -> Splat {
        Splat {
            center: Vec3::ZERO,
            axes,
            colour: BLUE,
        }
    }

    /// A sphere splat covers the pixels of its projected disc (π R², R = f r /
    /// sqrt(z² − r²) for a sphere seen in perspective), its front at the centre pixel
    /// is z − r and its chord there 2r.
    #[test]
    fn a_sphere_splat_covers_its_disc_with_its_depth_and_chord() {
        let (n, r) = (200u32, 0.2f32);
        let cam = camera(n);
        let canvas = Canvas::new(n, n, BG);
        let l = splat_all(
            &canvas,
            &cam,
            &[splat([Vec3::X * r, Vec3::Y * r, Vec3::Z * r])],
        );
        let covered = l.front.iter().filter(|z| z.is_finite()).count() as f32;
        let big_r = cam.focal * r / (2.0f32 * 2.0 - r * r).sqrt();
        let area = std::f32::consts::PI * big_r * big_r;
        assert!((covered - area).abs() / area < 0.02, "{covered} vs {area}");
        let k = (n as usize / 2) * n as usize + n as usize / 2;
        assert!((l.front[k] - (2.0 - r)).abs() < 1e-3, "{}", l.front[k]);
        assert!((l.thick[k] - 2.0 * r).abs() < 2e-3, "{}", l.thick[k]);
    }

    /// An ellipsoid flattened along the view axis has a chord of twice its short
    /// radius; stretched across the screen it covers its long axis.
    #[test]
    fn an_ellipsoid_splat_follows_its_axes() {
        let n = 200u32;
        let cam = camera(n);
        let canvas = Canvas::new(n, n, BG);
        let axes = [Vec3::X * 0.3, Vec3::Y * 0.1, Vec3::Z * 0.02];
        let l = splat_all(&canvas, &cam, &[splat(axes)]);
        let mid = n as usize / 2;
        let k = mid * n as usize + mid;
        assert!((l.thick[k] - 0.04).abs() < 1e-3, "{}", l.thick[k]);
        let row: Vec<bool> = (0..n as usize)
            .map(|i| l.front[mid * n as usize + i].is_finite())
            .collect();
        let col: Vec<bool> = (0..n as usize)
            .map(|j| l.front[j * n as usize + mid].is_finite())
            .collect();
        let (wide, tall) = (
            row.iter().filter(|&&b| b).count() as f32,
            col.iter().filter(|&&b| b).count() as f32,
        );
        // f = 100 / tan 20° ≈ 274.7 px; 0.3 m and 0.1 m at about 2 m.
        let f = cam.focal;
        assert!((wide - 2.0 * f * 0.3 / 2.0).abs() < 4.0, "{wide}");
        assert!((tall - 2.0 * f * 0.1 / 2.0).abs() < 4.0, "{tall}");
    }

    /// A solid in front of the water hides it; one behind shows through it, dimmed by
    /// the absorption of the water in front (thickness cut at the solid).
    #[test]
    fn solids_hide_water_in_front_and_show_through_behind() {
        let n = 64u32;
        let cam = camera(n);
        let r = 0.2f32;
        let white = Rgb(1.0, 1.0, 1.0);
        let look = WaterLook {
            specular: 0.0,
            f0: 0.0,
            ..WaterLook::clear(0.1)
        };
        let mid = (n as usize / 2) * n as usize + n as usize / 2;
        // A white solid at depth d fills the canvas.
        let picture = |d: f32| {
            let mut c = Canvas::new(n, n, white);
            c.inv_depth.fill(1.0 / d);
            draw_water(
                &mut c,
                &cam,
                &Light::default(),
                &look,
                &[splat([Vec3::X * r, Vec3::Y * r, Vec3::Z * r])],
                &[],
            );
            c.color[mid]
        };
        assert_eq!(picture(1.0), white);
        // The solid at the sphere's centre: r of water in front of it.
        let half = picture(2.0);
        let deep = picture(5.0);
        assert!(half.0 < 1.0 && half.0 > deep.0, "{half:?} {deep:?}");
        // Red is absorbed more than blue.
        assert!(half.0 < half.2, "{half:?}");
    }
}
