//! Snapshots of the fluid set: the fluids, emitters and kill volumes with their slot
//! generations, checked on load as an added one is. The fluid, emitter and kill volume
//! descs are stored by the records their `settings!` declarations generate.

use super::*;
use crate::fluid::grains::GrainEmitter;
use crate::fluid::KillVolumeShape;
use crate::slots::{SlotMap, MAX_SLOTS};

impl FluidSet {
    /// Snapshot: the fluids (settings, range, count, mass, ages, ρ/ρ₀, counters), the
    /// emitters (settings, fluid, carry, sequence) and the kill volumes, each table with
    /// its slot generations.
    pub(crate) fn save_fluids(&self, w: &mut Writer<'_>) {
        self.fluids.save_interleaved(w, |w, f| {
            f.desc.save_settings(w);
            w.put((f.first, f.count, f.mass, f.volume));
            w.put_block_raw(&f.age);
            w.put_block_raw(&f.density_ratio);
            w.put((f.emitted, (f.removed, f.refused)));
        });
        self.emitters.save_interleaved(w, |w, e| {
            e.stream.desc.save_settings(w);
            w.put((e.fluid, (e.stream.carry, e.stream.sequence)));
        });
        self.kill_volumes.save_interleaved(w, |w, v| {
            v.desc.save_settings(w);
            w.put(v.fluid);
        });
        self.grains.save_interleaved(w, |w, g| g.save(w));
    }

    /// Snapshot: reads what [`Self::save_fluids`] wrote, checking every setting as the
    /// API would, every particle range against the particles of `cx` (and against the
    /// other fluids'), every count, age and ρ/ρ₀, and every emitter's and kill volume's
    /// fluid.
    pub(crate) fn load_fluids(&mut self, r: &mut Reader<'_>, cx: &LoadContext<'_>) -> Result<()> {
        let n = cx.hot.len();
        let fluid = |r: &mut Reader<'_>, slot: usize, _generation: u32| -> Result<Fluid> {
            let desc = FluidDesc::load_settings(r)?;
            let what = format!("fluid {slot}");
            Fluid::check_mass(&desc)
                .map_err(|e| codec::corrupt(format!("{what}: {}", e.message)))?;
            let (first, count, mass, volume): (u32, u32, f32, f32) = r.get()?;
            let cap = desc.capacity;
            codec::ensure(
                first as u64 + cap as u64 <= n as u64 && count <= cap,
                || format!("{what} has particles {first}..+{cap} ({count} live) of {n}"),
            )?;
            let planar = [false, true].map(|p| Fluid::mass_and_volume(&desc, p));
            codec::ensure(planar.contains(&(mass, volume)), || {
                format!("{what} has mass {mass} and volume {volume}")
            })?;
            let mut f = Fluid::new(desc, first, false)?;
            (f.count, f.mass, f.volume) = (count, mass, volume);
            f.age = r.get_block_raw(cap as usize)?;
            f.density_ratio = r.get_block_raw(cap as usize)?;
            for (k, (&a, &d)) in f.age.iter().zip(&f.density_ratio).enumerate() {
                codec::ensure(
                    a.is_finite() && a >= 0.0 && d.is_finite() && d >= 0.0,
                    || format!("{what} particle {k} has age {a} and density ratio {d}"),
                )?;
            }
            (f.emitted, (f.removed, f.refused)) = r.get()?;
            codec::check_counters(&[f.emitted, f.refused], &what)?;
            // Every emission adds to `emitted` and `count`, every removal (recycling
            // included) to `removed` and takes from `count`.
            codec::ensure(
                f.emitted.checked_sub(f.removed) == Some(count as u64),
                || {
                    format!(
                        "{what} emitted {} and removed {} particles but holds {count}",
                        f.emitted, f.removed
                    )
                },
            )?;
            Ok(f)
        };
        let fluids = SlotMap::load_interleaved(r, MAX_SLOTS, "fluid slots", "fluid", fluid)?;
        let live = |k: u32| matches!(fluids.items().get(k as usize), Some(Some(_)));
        let emitter = |r: &mut Reader<'_>, k: usize, _generation: u32| -> Result<Emitter> {
            let desc = EmitterDesc::load_settings(r)?;
            let (fluid, (carry, sequence)): (u32, (f64, u64)) = r.get()?;
            let what = format!("emitter {k}");
            codec::ensure(live(fluid), || format!("{what} names fluid slot {fluid}"))?;
            codec::ensure((0.0..=1.0).contains(&carry), || {
                format!("{what} carries {carry} particles")
            })?;
            codec::check_counters(&[sequence], &what)?;
            let fdesc = &fluids.items()[fluid as usize].as_ref().expect("live").desc;
            // Against its fluid (the nozzle's radius and lattice).
            let (_, rows) = check_emitter(&desc, fdesc)
                .map_err(|e| codec::corrupt(format!("{what}: {}", e.message)))?;
            codec::check_unit(desc.rotation.length_squared(), &what)?;
            let mut stream = Stream::new(desc, rows);
            (stream.carry, stream.sequence) = (carry, sequence);
            Ok(Emitter { stream, fluid })
        };
        let emitters = SlotMap::load_interleaved(r, MAX_SLOTS, "emitters", "emitter", emitter)?;
        let kill = |r: &mut Reader<'_>, k: usize, _generation: u32| -> Result<KillVolume> {
            let desc = KillVolumeDesc::load_settings(r)?;
            let fluid: u32 = r.get()?;
            let what = format!("kill volume {k}");
            codec::ensure(live(fluid), || format!("{what} names fluid slot {fluid}"))?;
            let orientation = match desc.shape {
                KillVolumeShape::Box { rotation, .. } => rotation.length_squared(),
                KillVolumeShape::HalfSpace { normal } => normal.length_squared(),
                KillVolumeShape::Sphere { .. } => 1.0,
            };
            codec::check_unit(orientation, &what)?;
            Ok(KillVolume { desc, fluid })
        };
        let kill_volumes =
            SlotMap::load_interleaved(r, MAX_SLOTS, "kill volumes", "kill volume", kill)?;
        let grain = |r: &mut Reader<'_>, k: usize, _generation: u32| GrainEmitter::load(r, k, n);
        let grains =
            SlotMap::load_interleaved(r, MAX_SLOTS, "grain emitters", "grain emitter", grain)?;
        // No two fluids or grain emitters share a particle.
        let mut ranges: Vec<(u32, u32)> = fluids
            .iter()
            .map(|f| (f.first, f.first + f.capacity()))
            .chain(grains.iter().map(|g| (g.first, g.first + g.desc.budget)))
            .collect();
        ranges.sort_unstable();
        for pair in ranges.windows(2) {
            codec::ensure(pair[0].1 <= pair[1].0, || {
                format!(
                    "fluid or grain emitter particle ranges {:?} and {:?} overlap",
                    pair[0], pair[1]
                )
            })?;
        }
        self.grains = grains;
        self.fluids = fluids;
        self.emitters = emitters;
        self.kill_volumes = kill_volumes;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slots::Key;
    use glam::Quat;

    /// Saves `set` and loads it back against `particles` particles.
    fn round_trip(set: &FluidSet, particles: usize) -> Result<FluidSet> {
        let buf = codec::written(|w| set.save_fluids(w));
        let hot = vec![Vec4::ZERO; particles];
        let cx = LoadContext {
            hot: &hot,
            jacobi: false,
        };
        let mut loaded = FluidSet::default();
        let mut r = Reader::new(&buf);
        loaded.load_fluids(&mut r, &cx)?;
        assert_eq!(r.remaining(), 0);
        Ok(loaded)
    }

    /// A loaded fluid set equals the saved one, and every range, count, carry and
    /// handle it holds is checked against the particles loaded.
    #[test]
    fn loading_checks_ranges_counts_and_carries() {
        let mut set = FluidSet::default();
        let desc = FluidDesc {
            capacity: 10,
            ..FluidDesc::default()
        };
        for first in [0, 10] {
            set.reserve_fluid().unwrap();
            let mut f = Fluid::new(desc, first, false).unwrap();
            f.count = 4;
            f.emitted = 4;
            f.age[2] = 0.5;
            set.insert_fluid(f);
        }
        let id = FluidId(set.ids.id(Key {
            slot: 1,
            generation: 0,
        }));
        set.add_emitter(id, &EmitterDesc::default()).unwrap();
        set.add_kill_volume(id, &KillVolumeDesc::sphere(Vec3::ZERO, 1.0))
            .unwrap();
        let back = round_trip(&set, 20).unwrap();
        assert_eq!(back.fluids.slot_count(), 2);
        let f = back.fluids.items()[1].as_ref().unwrap();
        assert_eq!((f.first, f.count, f.age[2]), (10, 4, 0.5));
        assert_eq!(
            back.emitters.items()[0].as_ref().unwrap().stream.rows,
            vec![0, 1, 4, 9, 12, 13]
        );
        // Fewer particles than the second fluid's range.
        let e = round_trip(&set, 19).err().unwrap();
        assert!(e.message.contains("fluid 1"), "{}", e.message);
        // A count past the capacity, a carry outside [0, 1], overlapping ranges.
        set.fluids.items_mut()[1].as_mut().unwrap().count = 11;
        assert!(round_trip(&set, 20).is_err());
        set.fluids.items_mut()[1].as_mut().unwrap().count = 4;
        set.emitters.items_mut()[0].as_mut().unwrap().stream.carry = 2.0;
        assert!(round_trip(&set, 20).is_err());
        set.emitters.items_mut()[0].as_mut().unwrap().stream.carry = 0.5;
        // An emitter's sequence number is a counter too.
        set.emitters.items_mut()[0]
            .as_mut()
            .unwrap()
            .stream
            .sequence = u64::MAX;
        let e = round_trip(&set, 20).err().unwrap();
        assert!(e.message.contains("emitter 0"), "{}", e.message);
        set.emitters.items_mut()[0]
            .as_mut()
            .unwrap()
            .stream
            .sequence = 1 << 40;
        round_trip(&set, 20).unwrap();
        set.fluids.items_mut()[1].as_mut().unwrap().first = 5;
        let e = round_trip(&set, 20).err().unwrap();
        assert!(e.message.contains("overlap"), "{}", e.message);
        set.fluids.items_mut()[1].as_mut().unwrap().first = 10;
        // Counters past what any world reaches, or that disagree with the count.
        for (emitted, removed, refused) in
            [(u64::MAX, u64::MAX - 4, 0), (4, 0, u64::MAX), (5, 0, 0)]
        {
            let f = set.fluids.items_mut()[1].as_mut().unwrap();
            (f.emitted, f.removed, f.refused) = (emitted, removed, refused);
            let e = round_trip(&set, 20).err().unwrap();
            assert!(e.message.contains("fluid 1"), "{}", e.message);
        }
        let f = set.fluids.items_mut()[1].as_mut().unwrap();
        (f.emitted, f.removed, f.refused) = (1 << 40, (1 << 40) - 4, 7);
        round_trip(&set, 20).unwrap();
        // An emitter of a removed fluid.
        set.fluids.items_mut()[1] = None;
        assert!(round_trip(&set, 20).is_err());
    }

    /// Orientations the API stored load as saved, bit for bit, whether or not their
    /// renormalisation gives the same bits; other lengths are refused.
    #[test]
    fn saved_orientations_load_unchanged_and_forged_ones_are_refused() {
        let mut set = FluidSet::default();
        set.reserve_fluid().unwrap();
        set.insert_fluid(Fluid::new(FluidDesc::default(), 0, false).unwrap());
        let id = FluidId(set.ids.id(Key {
            slot: 0,
            generation: 0,
        }));
        let capacity = FluidDesc::default().capacity as usize;
        let mut z = 28u64;
        let mut component = || {
            z = z
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (z >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        };
        let mut odd = 0;
        for _ in 0..300 {
            let q = Quat::from_xyzw(component(), component(), component(), component() + 0.1)
                .normalize();
            let n = Vec3::new(component(), component(), component() + 0.1).normalize_or(Vec3::Y);
            let e = set
                .add_emitter(
                    id,
                    &EmitterDesc {
                        rotation: q,
                        ..EmitterDesc::default()
                    },
                )
                .unwrap();
            let kills = [
                KillVolumeDesc::oriented_box(Vec3::ZERO, q, Vec3::ONE),
                KillVolumeDesc::half_space(Vec3::ZERO, n),
            ]
            .map(|d| set.add_kill_volume(id, &d).unwrap());
            let saved = set.emitters.items()[0]
                .as_ref()
                .unwrap()
                .stream
                .desc
                .rotation;
            odd += (saved.normalize() != saved) as u32;
            let back = round_trip(&set, capacity).unwrap();
            assert_eq!(
                back.emitters.items()[0]
                    .as_ref()
                    .unwrap()
                    .stream
                    .desc
                    .rotation,
                saved
            );
            set.remove_emitter(e).unwrap();
            for k in kills {
                set.remove_kill_volume(k).unwrap();
            }
        }
        assert!(
            odd > 0,
            "no saved rotation differed from its renormalisation"
        );
        set.add_emitter(id, &EmitterDesc::default()).unwrap();
        set.emitters.items_mut()[0]
            .as_mut()
            .unwrap()
            .stream
            .desc
            .rotation = Quat::from_xyzw(0.0, 0.0, 0.0, 1.001);
        let e = round_trip(&set, capacity).err().unwrap();
        assert!(e.message.contains("not normalised"), "{}", e.message);
    }
}
