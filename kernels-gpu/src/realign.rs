//! Rows that start off 16 bytes, moved 16 bytes at a time: the source is
//! read as aligned 16-byte granules, and each 16-byte piece of a row is
//! shifted out of the two granules it straddles. Shared by the realigning
//! copies (`operand_copies.rs`, global → global), step 72's skinny
//! tiles (`tensor_core::global_to_shared`, which land the granules in
//! shared memory with `cp.async` and shift them there), step 81's
//! memory-bound kernels (`memory_bound.rs`, whose lanes take the second
//! granule from their neighbour with a shuffle), step 86's
//! (`memory_bound_mma.rs`, which loads both granules) and step 104's
//! (`memory_bound_mma_along_l.rs`, whose lanes read the second granule
//! from their neighbour's copy in shared memory).

use crate::device::{funnel_shift_right, load_global_x4_b32, select_f32};

/// The 16 bytes of global memory at byte address `at` (16-byte aligned) as
/// four words: one 16-byte load where all of them lie in `span` (the byte
/// range of the matrix), else its `T` elements one by one, zero outside
/// the span (nothing outside the matrix is read).
///
/// # Safety
/// `span` must be readable global memory of `T`s.
#[inline(always)]
pub(crate) unsafe fn granule<T: Copy + Into<u32>>(at: usize, span: (usize, usize)) -> [u32; 4] {
    if at >= span.0 && at + 16 <= span.1 {
        return unsafe { load_global_x4_b32(core::ptr::with_exposed_provenance(at)) };
    }
    let size = core::mem::size_of::<T>();
    let element = |i: usize| -> u32 {
        let byte = at + i * size;
        if byte >= span.0 && byte < span.1 {
            unsafe { (*core::ptr::with_exposed_provenance::<T>(byte)).into() }
        } else {
            0
        }
    };
    if size == 2 {
        core::array::from_fn(|q| element(2 * q) | (element(2 * q + 1) << 16))
    } else {
        core::array::from_fn(element)
    }
}

/// The 16 bytes `shift` bytes into the 32 of `window` (`shift` even and
/// below 16): a word offset picked by a branch, so that the window stays
/// in registers, and a funnel shift (`shf.r`) for the half word.
#[inline(always)]
pub(crate) fn realigned(window: [u32; 8], shift: usize) -> [u32; 4] {
    let bits = (shift % 4) * 8;
    let words_from = |first: usize| -> [u32; 4] {
        core::array::from_fn(|q| {
            let pair = ((window[first + q + 1] as u64) << 32) | window[first + q] as u64;
            (pair >> bits) as u32
        })
    };
    match shift / 4 {
        0 => words_from(0),
        1 => words_from(1),
        2 => words_from(2),
        _ => words_from(3),
    }
}

/// As [`realigned`], the word offset picked by two rounds of selects on
/// its bits instead of a branch: in the memory-bound kernels' unrolled
/// loops, where the shift differs by row, a `match` compiled to jump
/// tables (`brx.idx`) that made the shifted rows slower than loading them
/// element by element (PERF.md step 81); an index would put the window in
/// local memory.
#[inline(always)]
pub(crate) fn realigned_by_selects(window: [u32; 8], shift: u32) -> [u32; 4] {
    let (skip, bits) = (shift / 4, (shift % 4) * 8);
    let word = |pick: bool, a: u32, b: u32| select_f32(pick, f32::from_bits(a), f32::from_bits(b)).to_bits();
    let by_one: [u32; 7] = core::array::from_fn(|i| word(skip & 1 != 0, window[i + 1], window[i]));
    let by_two: [u32; 5] = core::array::from_fn(|i| word(skip & 2 != 0, by_one[i + 2], by_one[i]));
    core::array::from_fn(|i| funnel_shift_right(by_two[i], by_two[i + 1], bits))
}

/// The 16 bytes at byte address `at` (off 16 bytes) out of the two aligned
/// granules they straddle, each read by `granule` (a plain 16-byte load,
/// or [`granule`] at the edge of a matrix), shifted by
/// [`realigned_by_selects`].
#[inline(always)]
pub(crate) fn straddling(at: usize, granule: impl Fn(usize) -> [u32; 4]) -> [u32; 4] {
    let base = at & !15;
    let [a, b, c, d] = granule(base);
    let [e, f, g, h] = granule(base + 16);
    realigned_by_selects([a, b, c, d, e, f, g, h], (at - base) as u32)
}

/// `words` with every byte from `valid_bytes` on cleared: past a row's
/// end, which the shifted window may reach into the next row.
#[inline(always)]
pub(crate) fn keep_bytes(mut words: [u32; 4], valid_bytes: usize) -> [u32; 4] {
    for (q, word) in words.iter_mut().enumerate() {
        let kept = valid_bytes.saturating_sub(4 * q).min(4);
        *word &= if kept >= 4 { u32::MAX } else { (1u32 << (8 * kept)) - 1 };
    }
    words
}
