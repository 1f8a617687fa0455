//! Four positions' sparse input lists summed side by side: the shared
//! loop of the scalar and AVX-512 four-position kernels
//! ([`crate::bg::eval::nn`], [`crate::bg::eval::nn_avx512`]), in a module
//! of its own so that neither imports the other for it.

/// `add(acc[k], unit)` for every unit of `lists[k]` in order, the four
/// lists' units taken in turn while all four have one (each
/// accumulator's additions in its own list's order), so that four
/// chains of dependent additions run side by side.
#[inline(always)]
pub(crate) fn add_four_lists<A>(
    acc: &mut [A; 4],
    lists: [&[(u32, f32)]; 4],
    mut add: impl FnMut(&mut A, (u32, f32)),
) {
    let common = lists.iter().map(|l| l.len()).min().unwrap_or(0);
    for r in 0..common {
        for (a, units) in acc.iter_mut().zip(&lists) {
            // SAFETY: `r < common`, the shortest list's length.
            add(a, unsafe { *units.get_unchecked(r) });
        }
    }
    for (a, units) in acc.iter_mut().zip(&lists) {
        for &u in &units[common..] {
            add(a, u);
        }
    }
}
