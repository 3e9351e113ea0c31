//! Tests of the disjoint-slice types: parallel writes through them keep every write
//! (and, under Miri or ThreadSanitizer, race on nothing).

use super::*;
use crate::solver::parallel::CHUNK;

/// Two threads write interleaved disjoint halves of one slice through a
/// `DisjointSlice` while reading their own elements back: no lost write, and (under
/// Miri or ThreadSanitizer, see tests/sanitizers.sh) no data race and no
/// out-of-bounds access.
#[test]
fn disjoint_slice_parallel_writes_are_all_kept() {
    let n = 64;
    let mut v = vec![0u32; n];
    {
        let d = DisjointSlice::new(&mut v);
        std::thread::scope(|s| {
            for t in 0..2usize {
                let d = &d;
                s.spawn(move || {
                    for i in (t..n).step_by(2) {
                        // SAFETY: thread t owns the indices i ≡ t (mod 2), all < n.
                        unsafe {
                            d.set(i, i as u32 * 3 + 1);
                            assert_eq!(d.get(i), i as u32 * 3 + 1);
                        }
                    }
                });
            }
        });
    }
    assert!(v.iter().enumerate().all(|(i, &x)| x == i as u32 * 3 + 1));
}

/// Two threads take the chunks of interleaved ranges of a tuple of `Rows` (one
/// and two elements per item) and write them: no lost write, and (under Miri, see
/// tests/sanitizers.sh) no data race and no out-of-bounds access.
#[test]
fn rows_of_disjoint_ranges_are_all_kept() {
    let n = 40;
    let (mut a, mut b) = (vec![0u32; n], vec![0u32; 2 * n]);
    {
        let parts = (Rows::new(&mut a), Rows::with_width(&mut b, 2));
        assert_eq!(parts.items(), n);
        std::thread::scope(|s| {
            for t in 0..2usize {
                let parts = &parts;
                s.spawn(move || {
                    for r in (t * 5..n).step_by(10).map(|i| i..i + 5) {
                        // SAFETY: thread t takes the ranges 10 k + 5 t .. + 5, which
                        // no other range overlaps, each once.
                        let (x, y) = unsafe { parts.chunk(r.clone()) };
                        for ((x, y), i) in x.iter_mut().zip(y.chunks_mut(2)).zip(r) {
                            *x = i as u32 + 1;
                            y.fill(i as u32 + 2);
                        }
                    }
                });
            }
        });
    }
    assert!(a.iter().enumerate().all(|(i, &x)| x == i as u32 + 1));
    assert!(b.iter().enumerate().all(|(j, &y)| y == (j / 2) as u32 + 2));
}

/// Two threads take interleaved items of a per-item buffer (`Rows`) and of blocks
/// of 7 slots (`Blocks`, the last one shorter) and write them: every slot once, and
/// (under Miri, see tests/sanitizers.sh) no data race and no out-of-bounds access.
#[test]
fn blocks_cover_every_slot_once() {
    let (m, size) = (40usize, 7usize);
    let items = m.div_ceil(size);
    let (mut buffers, mut slots) = (vec![Vec::new(); items], vec![0u32; m]);
    {
        let parts = (Rows::new(&mut buffers), Blocks::new(&mut slots, size));
        assert_eq!(parts.items(), items);
        std::thread::scope(|s| {
            for t in 0..2usize {
                let parts = &parts;
                s.spawn(move || {
                    for c in (t..items).step_by(2) {
                        // SAFETY: thread t takes the items c ≡ t (mod 2), each once.
                        let (buf, block) = unsafe { parts.chunk(c..c + 1) };
                        assert_eq!(block.len(), size.min(m - c * size));
                        for (j, x) in block.iter_mut().enumerate() {
                            *x += (c * size + j) as u32 + 1;
                            buf[0].push(*x);
                        }
                    }
                });
            }
        });
    }
    assert!(slots.iter().enumerate().all(|(k, &x)| x == k as u32 + 1));
    assert_eq!(buffers.concat(), slots);
}

/// A checked slot order scatters to each slot's particle once, on several threads;
/// a map whose slots share a particle, or one not checked since its last edit, is
/// refused.
#[test]
fn slot_order_scatters_to_each_particle_once() {
    let exec = Executor::new(2).unwrap();
    let n = 40_000usize;
    let mut map = SlotOrder::default();
    {
        let (order, slot_of) = map.edit();
        // Every third particle has no slot; the others in reverse order.
        order.extend((0..n as u32).rev().filter(|i| i % 3 != 0));
        slot_of.resize(n, u32::MAX);
        for (k, &i) in order.iter().enumerate() {
            slot_of[i as usize] = k as u32;
        }
    }
    map.check();
    let mut target = vec![0u32; n];
    map.scatter_ranges(&exec, CHUNK, &mut target, |range, places| {
        for k in range {
            *places.at(k) += k as u32 + 1;
        }
    });
    for (k, &i) in map.order().iter().enumerate() {
        assert_eq!(target[i as usize], k as u32 + 1);
    }
    assert!(target.iter().step_by(3).all(|&x| x == 0));
    // A range hands out its own slots' particles only.
    let outside = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        map.scatter_ranges(&exec, CHUNK, &mut target, |range, places| {
            places.at(range.end);
        })
    }));
    assert!(outside.is_err());
    // Two slots on one particle.
    let (order, _) = map.edit();
    order[1] = order[0];
    let shared = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| map.check()));
    assert!(shared.is_err());
    let unchecked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        map.scatter_ranges(&exec, CHUNK, &mut target, |_, _| {})
    }));
    assert!(unchecked.is_err());
}
