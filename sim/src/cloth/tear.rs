//! Tearing: threads stretched past the limit part, and the shear and bending threads across the
//! cut go with them.

use super::Cloth;

impl Cloth {
    /// Tears every structural thread stretched past the limit, with the shear and bending
    /// threads across it.
    pub(super) fn tear(&mut self) -> u32 {
        let Some(limit) = self.tear_ratio else {
            return 0;
        };
        let (rows, columns) = (self.rows, self.columns);
        let mut torn = 0;
        for i in 0..self.pos.len() {
            let (c, r) = (i / rows, i % rows);
            if r + 1 < rows
                && self.down_intact[i]
                && self.pos[i].distance(self.pos[i + 1]) > limit * self.spacing_m
            {
                self.down_intact[i] = false;
                torn += 1;
                // Shear in the cells left and right of this edge; bending over it.
                for cell_c in c.checked_sub(1).into_iter().chain([c]) {
                    if cell_c < columns - 1 {
                        self.cut_shear(cell_c, r);
                    }
                }
                self.cut_vertical_bends(c, r);
            }
        }
        for k in 0..self.across_intact.len() {
            let (c, r) = (k / rows, k % rows);
            if self.across_intact[k]
                && self.pos[k].distance(self.pos[k + rows]) > limit * self.spacing_m
            {
                self.across_intact[k] = false;
                torn += 1;
                for cell_r in r.checked_sub(1).into_iter().chain([r]) {
                    if cell_r < rows - 1 {
                        self.cut_shear(c, cell_r);
                    }
                }
                self.cut_horizontal_bends(c, r);
            }
        }
        self.torn += torn;
        torn
    }

    /// Both shear threads of cell (c, r).
    pub(super) fn cut_shear(&mut self, c: usize, r: usize) {
        let rows = self.rows;
        self.shear_intact[2 * c * (rows - 1) + r] = false;
        self.shear_intact[(2 * c + 1) * (rows - 1) + r] = false;
    }

    /// Bending threads along column `c` that span the edge from row `r` to `r + 1`.
    pub(super) fn cut_vertical_bends(&mut self, c: usize, r: usize) {
        let rows = self.rows;
        let first_vertical = rows * self.columns.saturating_sub(2);
        for start in r.checked_sub(1).into_iter().chain([r]) {
            if start + 2 < rows {
                self.bend_intact[first_vertical + c * (rows - 2) + start] = false;
            }
        }
    }

    /// Bending threads along row `r` that span the edge from column `c` to `c + 1`.
    pub(super) fn cut_horizontal_bends(&mut self, c: usize, r: usize) {
        let columns = self.columns;
        for start in c.checked_sub(1).into_iter().chain([c]) {
            if start + 2 < columns {
                self.bend_intact[start * self.rows + r] = false;
            }
        }
    }
}
