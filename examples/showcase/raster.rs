//! A small software rasteriser: a perspective camera, a colour buffer with a z-buffer,
//! Gouraud/Lambert-shaded triangles lit from both sides, thick lines drawn as shaded
//! tubes, sphere-shaded discs, water from fluid ellipsoids (`water.rs`), and corner
//! text in a built-in bitmap font.
//!
//! Depth is stored as 1/z (z = distance along the view axis, m), which is linear in
//! screen space, so triangles interpolate it exactly; a larger value is nearer. Pixel
//! (i, j) is sampled at its centre (i + 0.5, j + 0.5); y grows downwards.

use sinew::Vec3;

#[path = "water.rs"]
pub mod water;

/// An RGB colour with components in [0, 1].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rgb(pub f32, pub f32, pub f32);

impl Rgb {
    /// From 8-bit sRGB-ish components.
    pub const fn hex(v: u32) -> Rgb {
        Rgb(
            ((v >> 16) & 0xff) as f32 / 255.0,
            ((v >> 8) & 0xff) as f32 / 255.0,
            (v & 0xff) as f32 / 255.0,
        )
    }

    pub fn scale(self, k: f32) -> Rgb {
        Rgb(self.0 * k, self.1 * k, self.2 * k)
    }

    pub fn lerp(self, o: Rgb, t: f32) -> Rgb {
        Rgb(
            self.0 + (o.0 - self.0) * t,
            self.1 + (o.1 - self.1) * t,
            self.2 + (o.2 - self.2) * t,
        )
    }

    pub fn to_u8(self) -> [u8; 3] {
        let c = |v: f32| (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
        [c(self.0), c(self.1), c(self.2)]
    }
}

/// A fixed perspective camera looking from `eye` at `target`.
#[derive(Clone, Copy, Debug)]
pub struct Camera {
    eye: Vec3,
    right: Vec3,
    up: Vec3,
    forward: Vec3,
    /// Focal length in pixels.
    focal: f32,
    cx: f32,
    cy: f32,
}

/// Points nearer than this (m along the view axis) are not drawn.
pub const NEAR: f32 = 0.05;

impl Camera {
    /// `fov_y_deg`: vertical field of view in degrees; `width`/`height` in pixels.
    pub fn look_at(eye: Vec3, target: Vec3, fov_y_deg: f32, width: u32, height: u32) -> Camera {
        let forward = (target - eye).normalize();
        let right = forward.cross(Vec3::Y).normalize();
        let up = right.cross(forward);
        let focal = 0.5 * height as f32 / (0.5 * fov_y_deg.to_radians()).tan();
        Camera {
            eye,
            right,
            up,
            forward,
            focal,
            cx: 0.5 * width as f32,
            cy: 0.5 * height as f32,
        }
    }

    /// Screen position (pixels, y down) and view depth z (m), or None behind `NEAR`.
    pub fn project(&self, p: Vec3) -> Option<(f32, f32, f32)> {
        let d = p - self.eye;
        let z = d.dot(self.forward);
        if z < NEAR {
            return None;
        }
        let x = self.cx + self.focal * d.dot(self.right) / z;
        let y = self.cy - self.focal * d.dot(self.up) / z;
        Some((x, y, z))
    }

    /// Pixels per metre at view depth z.
    pub fn pixels_per_metre(&self, z: f32) -> f32 {
        self.focal / z
    }

    /// Unit vector from `p` towards the eye.
    pub fn towards_eye(&self, p: Vec3) -> Vec3 {
        (self.eye - p).normalize_or_zero()
    }
}

/// Directional light and ambient term for Lambert shading.
#[derive(Clone, Copy, Debug)]
pub struct Light {
    /// Unit vector towards the light.
    pub dir: Vec3,
    pub ambient: f32,
    pub diffuse: f32,
}

impl Default for Light {
    fn default() -> Self {
        Light {
            dir: Vec3::new(-0.4, 1.0, 0.6).normalize(),
            ambient: 0.35,
            diffuse: 0.65,
        }
    }
}

impl Light {
    /// Lambert intensity for unit normal `n`.
    pub fn lambert(&self, n: Vec3) -> f32 {
        self.ambient + self.diffuse * n.dot(self.dir).max(0.0)
    }
}

/// A colour buffer with a z-buffer (1/z, 0 = empty).
pub struct Canvas {
    pub width: u32,
    pub height: u32,
    pub color: Vec<Rgb>,
    pub inv_depth: Vec<f32>,
}

/// A screen-space vertex: pixel position, 1/z and colour.
#[derive(Clone, Copy, Debug)]
pub struct ScreenVertex {
    pub x: f32,
    pub y: f32,
    pub inv_z: f32,
    pub color: Rgb,
}

fn edge(ax: f32, ay: f32, bx: f32, by: f32, px: f32, py: f32) -> f32 {
    (bx - ax) * (py - ay) - (by - ay) * (px - ax)
}

impl Canvas {
    pub fn new(width: u32, height: u32, background: Rgb) -> Canvas {
        let n = (width * height) as usize;
        Canvas {
            width,
            height,
            color: vec![background; n],
            inv_depth: vec![0.0; n],
        }
    }

    /// Fills with a vertical gradient from `top` to `bottom` and clears the z-buffer.
    pub fn clear_gradient(&mut self, top: Rgb, bottom: Rgb) {
        let w = self.width as usize;
        for (j, row) in self.color.chunks_mut(w).enumerate() {
            let c = top.lerp(bottom, j as f32 / (self.height.max(2) - 1) as f32);
            row.fill(c);
        }
        self.inv_depth.fill(0.0);
    }

    /// Writes `c` at (i, j) when `inv_z` is nearer than what is there.
    #[inline]
    fn plot(&mut self, i: usize, j: usize, inv_z: f32, c: Rgb) {
        let k = j * self.width as usize + i;
        if inv_z > self.inv_depth[k] {
            self.inv_depth[k] = inv_z;
            self.color[k] = c;
        }
    }

    /// Pixel index range covering [lo, hi] in one axis, clipped to `0..n`.
    fn span(lo: f32, hi: f32, n: u32) -> std::ops::Range<usize> {
        let a = (lo - 0.5).ceil().max(0.0);
        let b = ((hi - 0.5).floor() + 1.0).min(n as f32);
        if b <= a {
            return 0..0;
        }
        a as usize..b as usize
    }

    /// Fills a screen-space triangle (either winding), interpolating 1/z linearly and
    /// colour perspective-correctly, depth-tested. A pixel is covered when its centre
    /// is inside or on an edge.
    pub fn fill_triangle(&mut self, v: [ScreenVertex; 3]) {
        let area = edge(v[0].x, v[0].y, v[1].x, v[1].y, v[2].x, v[2].y);
        if !area.is_finite() || area.abs() < 1e-12 {
            return;
        }
        let xs = Self::span(
            v[0].x.min(v[1].x).min(v[2].x),
            v[0].x.max(v[1].x).max(v[2].x),
            self.width,
        );
        let ys = Self::span(
            v[0].y.min(v[1].y).min(v[2].y),
            v[0].y.max(v[1].y).max(v[2].y),
            self.height,
        );
        let inv_area = 1.0 / area;
        for j in ys {
            let py = j as f32 + 0.5;
            for i in xs.clone() {
                let px = i as f32 + 0.5;
                let b0 = edge(v[1].x, v[1].y, v[2].x, v[2].y, px, py) * inv_area;
                let b1 = edge(v[2].x, v[2].y, v[0].x, v[0].y, px, py) * inv_area;
                let b2 = edge(v[0].x, v[0].y, v[1].x, v[1].y, px, py) * inv_area;
                if b0 < 0.0 || b1 < 0.0 || b2 < 0.0 {
                    continue;
                }
                let iz = b0 * v[0].inv_z + b1 * v[1].inv_z + b2 * v[2].inv_z;
                // Perspective-correct colour: weights b_k * (1/z_k) / (1/z).
                let (w0, w1, w2) = (
                    b0 * v[0].inv_z / iz,
                    b1 * v[1].inv_z / iz,
                    b2 * v[2].inv_z / iz,
                );
                let c = Rgb(
                    w0 * v[0].color.0 + w1 * v[1].color.0 + w2 * v[2].color.0,
                    w0 * v[0].color.1 + w1 * v[1].color.1 + w2 * v[2].color.1,
                    w0 * v[0].color.2 + w1 * v[1].color.2 + w2 * v[2].color.2,
                );
                self.plot(i, j, iz, c);
            }
        }
    }

    /// A disc of radius `r` pixels centred at (cx, cy), shaded as a sphere of colour
    /// `c` lit by `light` (seen along the view axis) and depth-tested as a sphere
    /// (view depth `z` at its centre, `r_world` metres in radius). `flat` skips the
    /// shading and the bulge.
    #[allow(clippy::too_many_arguments)]
    pub fn fill_disc(
        &mut self,
        cx: f32,
        cy: f32,
        r: f32,
        z: f32,
        r_world: f32,
        c: Rgb,
        light: Option<&Light>,
    ) {
        let xs = Self::span(cx - r, cx + r, self.width);
        let ys = Self::span(cy - r, cy + r, self.height);
        let r2 = r * r;
        for j in ys {
            let dy = j as f32 + 0.5 - cy;
            for i in xs.clone() {
                let dx = i as f32 + 0.5 - cx;
                let d2 = dx * dx + dy * dy;
                if d2 > r2 {
                    continue;
                }
                match light {
                    None => self.plot(i, j, 1.0 / z, c),
                    Some(l) => {
                        let nz = (1.0 - d2 / r2).max(0.0).sqrt();
                        // Normal in camera space (x right, y up, z towards the eye),
                        // light direction approximated in the same frame.
                        let n = Vec3::new(dx / r, -dy / r, nz);
                        let shade = l.lambert(n);
                        self.plot(i, j, 1.0 / (z - r_world * nz), c.scale(shade));
                    }
                }
            }
        }
    }

    /// A thick line from a to b (screen pixels, view depths za/zb), radius ra/rb pixels
    /// at each end, round caps; shaded as a tube when `light` is given.
    #[allow(clippy::too_many_arguments)]
    pub fn fill_capsule(
        &mut self,
        a: (f32, f32, f32),
        b: (f32, f32, f32),
        ra: f32,
        rb: f32,
        c: Rgb,
        light: Option<&Light>,
    ) {
        let rmax = ra.max(rb);
        let xs = Self::span(a.0.min(b.0) - rmax, a.0.max(b.0) + rmax, self.width);
        let ys = Self::span(a.1.min(b.1) - rmax, a.1.max(b.1) + rmax, self.height);
        let (ex, ey) = (b.0 - a.0, b.1 - a.1);
        let len2 = ex * ex + ey * ey;
        let len = len2.sqrt();
        let (ux, uy) = if len > 0.0 {
            (ex / len, ey / len)
        } else {
            (1.0, 0.0)
        };
        for j in ys {
            let py = j as f32 + 0.5;
            for i in xs.clone() {
                let px = i as f32 + 0.5;
                let t = if len2 > 0.0 {
                    (((px - a.0) * ex + (py - a.1) * ey) / len2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let (qx, qy) = (a.0 + t * ex - px, a.1 + t * ey - py);
                let d2 = qx * qx + qy * qy;
                let r = ra + (rb - ra) * t;
                if d2 > r * r {
                    continue;
                }
                let inv_z = 1.0 / a.2 + (1.0 / b.2 - 1.0 / a.2) * t;
                let shade = match light {
                    None => 1.0,
                    Some(l) => {
                        // Signed offset across the line, as a tube normal.
                        let s = ((px - a.0) * -uy + (py - a.1) * ux) / r.max(1e-6);
                        let s = s.clamp(-1.0, 1.0);
                        let n = Vec3::new(-uy * s, ux * s, 0.0);
                        let n = Vec3::new(n.x, -n.y, (1.0 - s * s).max(0.0).sqrt());
                        l.lambert(n)
                    }
                };
                self.plot(i, j, inv_z * 1.0001, c.scale(shade));
            }
        }
    }

    /// Averages `k`×`k` blocks (supersampling down to the output size).
    pub fn downsample(&self, k: u32) -> Canvas {
        if k == 1 {
            return Canvas {
                width: self.width,
                height: self.height,
                color: self.color.clone(),
                inv_depth: self.inv_depth.clone(),
            };
        }
        let (w, h) = (self.width / k, self.height / k);
        let mut out = Canvas::new(w, h, Rgb(0.0, 0.0, 0.0));
        let inv = 1.0 / (k * k) as f32;
        for j in 0..h {
            for i in 0..w {
                let mut s = Rgb(0.0, 0.0, 0.0);
                let mut d: f32 = 0.0;
                for jj in 0..k {
                    for ii in 0..k {
                        let idx = ((j * k + jj) * self.width + i * k + ii) as usize;
                        let c = self.color[idx];
                        s = Rgb(s.0 + c.0, s.1 + c.1, s.2 + c.2);
                        d = d.max(self.inv_depth[idx]);
                    }
                }
                let o = (j * w + i) as usize;
                out.color[o] = s.scale(inv);
                out.inv_depth[o] = d;
            }
        }
        out
    }

    /// Darkens a rectangle (for text backgrounds): colour × `k`.
    pub fn shade_rect(&mut self, x0: u32, y0: u32, w: u32, h: u32, k: f32) {
        for j in y0..(y0 + h).min(self.height) {
            for i in x0..(x0 + w).min(self.width) {
                let idx = (j * self.width + i) as usize;
                self.color[idx] = self.color[idx].scale(k);
            }
        }
    }

    /// Draws `text` at (x, y) (top-left, pixels) in the built-in 5×7 font, each font
    /// pixel `scale`×`scale` pixels; no depth test. Returns the width drawn.
    pub fn text(&mut self, x: u32, y: u32, text: &str, scale: u32, c: Rgb) -> u32 {
        let mut pen = x;
        for ch in text.chars() {
            let rows = super::font::glyph(ch);
            for (r, bits) in rows.iter().enumerate() {
                for col in 0..5 {
                    if bits & (0x10 >> col) == 0 {
                        continue;
                    }
                    for sy in 0..scale {
                        for sx in 0..scale {
                            let (px, py) = (pen + col * scale + sx, y + r as u32 * scale + sy);
                            if px < self.width && py < self.height {
                                self.color[(py * self.width + px) as usize] = c;
                            }
                        }
                    }
                }
            }
            pen += 6 * scale;
        }
        pen - x
    }

    /// 8-bit RGB bytes, row-major.
    pub fn to_rgb8(&self) -> Vec<u8> {
        self.color.iter().flat_map(|c| c.to_u8()).collect()
    }
}

/// Draws world-space primitives through a camera onto a canvas.
pub struct Painter<'a> {
    pub canvas: &'a mut Canvas,
    pub camera: Camera,
    pub light: Light,
}

impl Painter<'_> {
    /// A triangle with one normal per vertex (None = the face normal), Lambert-shaded
    /// from whichever side faces the camera: `front` is the colour of the side the
    /// normals (or the counter-clockwise winding) point to, `back` of the other.
    pub fn triangle(&mut self, p: [Vec3; 3], normals: Option<[Vec3; 3]>, front: Rgb, back: Rgb) {
        let face = (p[1] - p[0]).cross(p[2] - p[0]).normalize_or_zero();
        let centre = (p[0] + p[1] + p[2]) / 3.0;
        let facing_front = face.dot(self.camera.towards_eye(centre)) >= 0.0;
        let (sign, col) = if facing_front {
            (1.0, front)
        } else {
            (-1.0, back)
        };
        let mut v = [ScreenVertex {
            x: 0.0,
            y: 0.0,
            inv_z: 0.0,
            color: col,
        }; 3];
        for k in 0..3 {
            let Some((x, y, z)) = self.camera.project(p[k]) else {
                return;
            };
            let n = normals.map_or(face, |n| n[k]) * sign;
            v[k] = ScreenVertex {
                x,
                y,
                inv_z: 1.0 / z,
                color: col.scale(self.light.lambert(n)),
            };
        }
        self.canvas.fill_triangle(v);
    }

    /// An unlit triangle of one colour (shadows).
    pub fn flat_triangle(&mut self, p: [Vec3; 3], c: Rgb) {
        let mut v = [ScreenVertex {
            x: 0.0,
            y: 0.0,
            inv_z: 0.0,
            color: c,
        }; 3];
        for k in 0..3 {
            let Some((x, y, z)) = self.camera.project(p[k]) else {
                return;
            };
            v[k] = ScreenVertex {
                x,
                y,
                inv_z: 1.0 / z,
                color: c,
            };
        }
        self.canvas.fill_triangle(v);
    }

    /// An unlit thick line of radius `radius` m (shadows).
    pub fn flat_line(&mut self, a: Vec3, b: Vec3, radius: f32, c: Rgb) {
        let (Some(pa), Some(pb)) = (self.camera.project(a), self.camera.project(b)) else {
            return;
        };
        let ra = (radius * self.camera.pixels_per_metre(pa.2)).max(0.6);
        let rb = (radius * self.camera.pixels_per_metre(pb.2)).max(0.6);
        self.canvas.fill_capsule(pa, pb, ra, rb, c, None);
    }

    /// A tube of radius `radius` m from a to b.
    pub fn line(&mut self, a: Vec3, b: Vec3, radius: f32, c: Rgb) {
        let (Some(pa), Some(pb)) = (self.camera.project(a), self.camera.project(b)) else {
            return;
        };
        let ra = (radius * self.camera.pixels_per_metre(pa.2)).max(0.6);
        let rb = (radius * self.camera.pixels_per_metre(pb.2)).max(0.6);
        self.canvas
            .fill_capsule(pa, pb, ra, rb, c, Some(&self.light.clone()));
    }

    /// A polyline of tubes through `points`.
    pub fn polyline(&mut self, points: &[Vec3], radius: f32, c: Rgb) {
        for w in points.windows(2) {
            self.line(w[0], w[1], radius, c);
        }
    }

    /// A sphere-shaded disc of radius `radius` m at `p`.
    pub fn disc(&mut self, p: Vec3, radius: f32, c: Rgb) {
        let Some((x, y, z)) = self.camera.project(p) else {
            return;
        };
        let r = (radius * self.camera.pixels_per_metre(z)).max(0.8);
        let light = self.light;
        self.canvas.fill_disc(x, y, r, z, radius, c, Some(&light));
    }

    /// A checkered floor in the plane y = `height`, `n`×`n` tiles of `tile` m centred
    /// on (cx, cz), in colours `a` and `b`.
    pub fn floor(
        &mut self,
        height: f32,
        (cx, cz): (f32, f32),
        n: i32,
        tile: f32,
        (a, b): (Rgb, Rgb),
    ) {
        let half = n as f32 * tile * 0.5;
        for i in 0..n {
            for k in 0..n {
                let x0 = cx - half + i as f32 * tile;
                let z0 = cz - half + k as f32 * tile;
                let c = if (i + k) % 2 == 0 { a } else { b };
                let p = [
                    Vec3::new(x0, height, z0),
                    Vec3::new(x0 + tile, height, z0),
                    Vec3::new(x0 + tile, height, z0 + tile),
                    Vec3::new(x0, height, z0 + tile),
                ];
                let up = Some([Vec3::Y; 3]);
                self.triangle([p[0], p[2], p[1]], up, c, c);
                self.triangle([p[0], p[3], p[2]], up, c, c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BG: Rgb = Rgb(0.0, 0.0, 0.0);
    const RED: Rgb = Rgb(1.0, 0.0, 0.0);
    const BLUE: Rgb = Rgb(0.0, 0.0, 1.0);

    fn sv(x: f32, y: f32, z: f32, c: Rgb) -> ScreenVertex {
        ScreenVertex {
            x,
            y,
            inv_z: 1.0 / z,
            color: c,
        }
    }

    fn covered(c: &Canvas) -> usize {
        c.color.iter().filter(|&&p| p != BG).count()
    }

    /// Every pixel whose centre is strictly inside the triangle is covered, every
    /// pixel whose centre is strictly outside is not, for both windings.
    #[test]
    fn triangle_covers_exactly_the_pixels_whose_centres_are_inside() {
        let tri = [(3.3, 2.1), (27.8, 9.4), (8.9, 30.2)];
        for order in [[0, 1, 2], [0, 2, 1]] {
            let mut c = Canvas::new(32, 32, BG);
            let v = order.map(|k| sv(tri[k].0, tri[k].1, 1.0, RED));
            c.fill_triangle(v);
            let mut inside = 0;
            for j in 0..32 {
                for i in 0..32 {
                    let (px, py) = (i as f32 + 0.5, j as f32 + 0.5);
                    let e = [
                        edge(tri[0].0, tri[0].1, tri[1].0, tri[1].1, px, py),
                        edge(tri[1].0, tri[1].1, tri[2].0, tri[2].1, px, py),
                        edge(tri[2].0, tri[2].1, tri[0].0, tri[0].1, px, py),
                    ];
                    let want = e.iter().all(|&v| v > 0.0) || e.iter().all(|&v| v < 0.0);
                    let got = c.color[j * 32 + i] != BG;
                    assert_eq!(got, want, "pixel ({i}, {j}) order {order:?}");
                    inside += want as usize;
                }
            }
            // Area (shoelace) = (24.5 × 28.1 − 5.6 × 7.3) / 2 = 323.785 px².
            assert!((inside as f32 - 323.785).abs() < 10.0, "{inside}");
        }
    }

    /// The nearer triangle wins wherever the two overlap, whichever is drawn first.
    #[test]
    fn z_buffer_keeps_the_nearer_surface_in_either_order() {
        let near = [
            sv(0.0, 0.0, 1.0, BLUE),
            sv(20.0, 0.0, 1.0, BLUE),
            sv(0.0, 20.0, 1.0, BLUE),
        ];
        let far = [
            sv(0.0, 0.0, 2.0, RED),
            sv(20.0, 0.0, 2.0, RED),
            sv(0.0, 20.0, 2.0, RED),
        ];
        for first_near in [true, false] {
            let mut c = Canvas::new(20, 20, BG);
            if first_near {
                c.fill_triangle(near);
                c.fill_triangle(far);
            } else {
                c.fill_triangle(far);
                c.fill_triangle(near);
            }
            assert!(c.color.iter().all(|&p| p.0 < 0.01));
            assert!(c.color[2 * 20 + 3].2 > 0.99);
            assert!((c.inv_depth[2 * 20 + 3] - 1.0).abs() < 1e-6);
        }
    }

    /// Depth is interpolated as 1/z: a triangle tilted in depth hides a plane at a
    /// constant depth exactly where its interpolated depth is nearer.
    #[test]
    fn depth_interpolation_is_linear_in_inverse_z() {
        let mut c = Canvas::new(60, 4, BG);
        // A plane at z = 2 across the whole strip.
        c.fill_triangle([
            sv(0.0, -10.0, 2.0, RED),
            sv(200.0, -10.0, 2.0, RED),
            sv(0.0, 20.0, 2.0, RED),
        ]);
        // 1/z = 1 + (1/4 - 1) x / 60 depends on x only: it equals 1/2 at x = 40.
        c.fill_triangle([
            sv(0.0, -100.0, 1.0, BLUE),
            sv(0.0, 100.0, 1.0, BLUE),
            sv(60.0, 0.0, 4.0, BLUE),
        ]);
        for i in 0..60 {
            let x = i as f32 + 0.5;
            let got = c.color[60 + i];
            let blue = got.2 > 0.99 && got.0 < 0.01;
            let red = got.0 > 0.99 && got.2 < 0.01;
            assert!(if x < 40.0 { blue } else { red }, "x {x}: {got:?}");
        }
    }

    /// A flat disc covers ≈ πr² pixels (within a perimeter-sized error), and the
    /// count converges: relative error below 1% at r = 40.
    #[test]
    fn disc_area_is_pi_r_squared() {
        for r in [5.0f32, 12.5, 40.0] {
            let n = (2.0 * r) as u32 + 4;
            let mut c = Canvas::new(n, n, BG);
            c.fill_disc(
                n as f32 / 2.0 + 0.13,
                n as f32 / 2.0 - 0.27,
                r,
                1.0,
                0.0,
                RED,
                None,
            );
            let area = std::f32::consts::PI * r * r;
            let got = covered(&c) as f32;
            assert!(
                (got - area).abs() < 2.0 * std::f32::consts::PI * r * 0.5,
                "r {r}: {got} vs {area}"
            );
            if r >= 40.0 {
                assert!((got - area).abs() / area < 0.01, "r {r}: {got} vs {area}");
            }
        }
    }

    /// A horizontal thick line of radius r and length L covers ≈ 2rL + πr² pixels.
    #[test]
    fn capsule_area_is_rectangle_plus_caps() {
        let mut c = Canvas::new(100, 40, BG);
        c.fill_capsule((20.0, 20.2, 1.0), (80.0, 20.2, 1.0), 6.0, 6.0, RED, None);
        let want = 2.0 * 6.0 * 60.0 + std::f32::consts::PI * 36.0;
        let got = covered(&c) as f32;
        assert!((got - want).abs() / want < 0.03, "{got} vs {want}");
    }

    /// A point on the view axis lands at the image centre; one metre to the right at
    /// depth d lands focal/d pixels right of it.
    #[test]
    fn camera_projects_with_the_pinhole_formula() {
        let cam = Camera::look_at(Vec3::new(0.0, 0.0, 5.0), Vec3::ZERO, 90.0, 200, 100);
        let (x, y, z) = cam.project(Vec3::ZERO).unwrap();
        assert!((x - 100.0).abs() < 1e-4 && (y - 50.0).abs() < 1e-4 && (z - 5.0).abs() < 1e-5);
        // fov 90° over 100 px: focal = 50 px.
        let (x, y, _) = cam.project(Vec3::new(1.0, 1.0, 0.0)).unwrap();
        assert!((x - 110.0).abs() < 1e-3, "{x}");
        assert!((y - 40.0).abs() < 1e-3, "{y}");
        assert!(cam.project(Vec3::new(0.0, 0.0, 6.0)).is_none());
    }

    /// Two-sided lighting: a triangle seen from behind uses the back colour and is lit
    /// as brightly as from the front when the light is behind it too.
    #[test]
    fn triangles_are_lit_from_whichever_side_faces_the_camera() {
        for eye_z in [3.0f32, -3.0] {
            let mut canvas = Canvas::new(40, 40, BG);
            let mut p = Painter {
                canvas: &mut canvas,
                camera: Camera::look_at(Vec3::new(0.0, 0.0, eye_z), Vec3::ZERO, 60.0, 40, 40),
                light: Light {
                    dir: Vec3::new(0.0, 0.0, eye_z.signum()),
                    ambient: 0.0,
                    diffuse: 1.0,
                },
            };
            let tri = [
                Vec3::new(-1.0, -1.0, 0.0),
                Vec3::new(1.0, -1.0, 0.0),
                Vec3::new(0.0, 1.0, 0.0),
            ];
            p.triangle(tri, None, RED, BLUE);
            let centre = canvas.color[20 * 40 + 20];
            let want = if eye_z > 0.0 { RED } else { BLUE };
            assert!(
                (centre.0 - want.0).abs() < 1e-5 && (centre.2 - want.2).abs() < 1e-5,
                "{centre:?}"
            );
        }
    }

    #[test]
    fn supersampling_averages_blocks() {
        let mut c = Canvas::new(4, 2, BG);
        c.color[0] = Rgb(1.0, 1.0, 1.0);
        let d = c.downsample(2);
        assert_eq!((d.width, d.height), (2, 1));
        assert!((d.color[0].0 - 0.25).abs() < 1e-6 && d.color[1].0 == 0.0);
    }

    #[test]
    fn text_draws_glyph_pixels() {
        let mut c = Canvas::new(40, 10, BG);
        let w = c.text(1, 1, "I", 1, RED);
        assert_eq!(w, 6);
        // "I": a bar of 3 at top and bottom and a centre stem: 3 + 3 + 5 pixels.
        assert_eq!(covered(&c), 11);
    }
}
