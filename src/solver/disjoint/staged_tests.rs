//! Tests of the staged passes of `super` (`solver/disjoint/`); they need no unsafe.

use super::*;

/// A three-stage pass on two threads: stage 0 writes each item's block, stage 1
/// reads every block and writes its own, stage 2 scatters through a slot order;
/// every element once, the stages in order. An item writing an array of another
/// stage, reading its own stage's, or writing twice is refused.
#[test]
fn staged_pass_writes_blocks_and_places_once() {
    let exec = Executor::new(2).unwrap();
    let (m, block) = (1000usize, 64usize);
    let items = m.div_ceil(block);
    let mut map = SlotOrder::default();
    {
        let (order, slot_of) = map.edit();
        order.extend((0..m as u32).rev());
        slot_of.extend((0..m as u32).rev());
    }
    map.check();
    let (mut a, mut b, mut target) = (vec![0u32; m], vec![0u32; m], vec![0u32; m]);
    {
        let parts = (
            StageSlots::new(&mut a, 0, block),
            StageSlots::new(&mut b, 1, block),
            map.places(&mut target, 2, block),
        );
        exec.staged(2, 3, items, parts, |item, p| {
            let first = item.index() * block;
            match item.stage() {
                0 => {
                    for (j, x) in item.write(&p.0).iter_mut().enumerate() {
                        *x = (first + j) as u32 + 1;
                    }
                }
                1 => {
                    let a = item.read(&p.0);
                    assert!(a.iter().enumerate().all(|(k, &x)| x == k as u32 + 1));
                    for (j, x) in item.write(&p.1).iter_mut().enumerate() {
                        *x = a[m - 1 - (first + j)];
                    }
                }
                _ => {
                    let b = item.read(&p.1);
                    let mut t = item.write(&p.2);
                    for (k, &x) in b.iter().enumerate().skip(first).take(block) {
                        *t.at(k) += x;
                    }
                }
            }
        });
    }
    assert!(b.iter().enumerate().all(|(k, &x)| x == (m - k) as u32));
    // Slot k holds particle m - 1 - k and adds b[k] = m - k to it.
    assert!(target.iter().enumerate().all(|(i, &x)| x == i as u32 + 1));
    type Two<'a> = (StageSlots<'a, u32>, StageSlots<'a, u32>);
    let refused = |f: &(dyn Fn(&StageItem, &Two<'_>) + Sync)| {
        let (mut a, mut b) = (vec![0u32; 8], vec![0u32; 8]);
        let parts = (StageSlots::new(&mut a, 0, 4), StageSlots::new(&mut b, 1, 4));
        let exec = Executor::new(1).unwrap();
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            exec.staged(1, 2, 2, parts, f)
        }))
        .is_err()
    };
    assert!(refused(&|item, p| {
        item.write(&p.1);
    }));
    assert!(refused(&|item, p| {
        if item.stage() == 0 {
            item.read(&p.0);
        }
    }));
    assert!(refused(&|item, p| {
        if item.stage() == 0 {
            item.write(&p.0);
            item.write(&p.0);
        }
    }));
    let mut other = vec![0u32; 8];
    let other = StageSlots::new(&mut other, 0, 4);
    assert!(refused(&|item, _| {
        if item.stage() == 1 {
            item.read(&other);
        }
    }));
}
