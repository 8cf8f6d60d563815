//! Reeling: rope paid in and out through the last segment, whose rest length moves, with a node
//! added or removed when it grows past or shrinks below its bounds.

use super::Rope;

impl Rope {
    /// Pays rope in or out at the far end for this step's change of length: the last segment
    /// takes it, and a node next to the end is removed when that segment would get shorter than
    /// half a nominal segment, or added when it would get longer than one and a half. Returns
    /// the last segment's rest length at the start of the step, in the new node layout (the
    /// substeps move it to `last_segment_rest_m()`).
    pub(super) fn pay_in_or_out(&mut self) -> f32 {
        let nominal_m = self.nominal_segment_m;
        let full_m = |rope: &Rope| nominal_m * (rope.segment_count() - 1) as f32;
        let mut from_m = self.length_at_step_start_m - full_m(self);
        let mut to_m = self.length_m - full_m(self);
        while to_m < 0.5 * nominal_m && self.segment_count() > 1 {
            self.remove_node(self.segment_count() - 1);
            from_m += nominal_m;
            to_m += nominal_m;
        }
        while to_m > 1.5 * nominal_m && self.segment_count() < self.max_segments {
            // The new node goes on the last segment where the nominal length ends, scaled to
            // the segment as it is now, so a slack segment's slack is shared, not created.
            let fraction = nominal_m / to_m;
            self.insert_node_before_end(fraction);
            from_m -= nominal_m;
            to_m -= nominal_m;
        }
        from_m
    }

    pub(super) fn remove_node(&mut self, i: usize) {
        self.nodes.remove(i);
        self.prev.remove(i);
        self.inv_mass.remove(i);
        self.touching.remove(i);
        self.contact_memory.remove(i);
        self.params.segments = self.segment_count();
    }

    /// Splits the last segment at `fraction` of the way from its first node; the new node's
    /// velocity is interpolated like its position.
    pub(super) fn insert_node_before_end(&mut self, fraction: f32) {
        let last = self.segment_count();
        let at = self.nodes[last - 1].lerp(self.nodes[last], fraction);
        let was = self.prev[last - 1].lerp(self.prev[last], fraction);
        self.nodes.insert(last, at);
        self.prev.insert(last, was);
        self.inv_mass.insert(last, 1.0);
        self.touching.insert(last, false);
        self.contact_memory.insert(last, 0);
        self.params.segments = self.segment_count();
    }
}
