//! The one sort the engine and the page use: indexes ordered by a `u64`
//! rank, ties in index order. Every caller shares one instance of the sort
//! (the page's wasm has a size budget, and each key closure or element
//! type would add its own).

/// The indexes `0..ranks.len()` in the order of their ranks; equal ranks
/// keep their index order.
pub fn by_rank(ranks: impl IntoIterator<Item = u64>) -> Vec<u32> {
    let mut order: Vec<(u64, u32)> = ranks
        .into_iter()
        .enumerate()
        .map(|(index, rank)| (rank, index as u32))
        .collect();
    order.sort_unstable();
    order.into_iter().map(|(_, index)| index).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_keep_their_order() {
        assert_eq!(by_rank([3, 1, 3, 0, 1]), [3, 1, 4, 0, 2]);
        assert!(by_rank([]).is_empty());
    }
}
