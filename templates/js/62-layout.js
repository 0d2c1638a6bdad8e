/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates/js/62-layout.js — part of the SVG's script (the build joins
 * templates/js/*.js in name order into templates/flamegraph.js, one IIFE;
 * 00-prelude.js has the design and invariants): the drill-down layout:
 * flamegraph.pl's flow() over a node's subtree, as render/layout.c lays
 * out the file.
 */
	/* ---- drill-down layout: flamegraph.pl's flow() over node z's subtree ----
	 * As `render` of the lines through z alone: z spans the full width, a
	 * frame narrower than minwidth (in samples at this scale) is dropped
	 * and summed into its parent's pruned runs.  Frames come out in
	 * pre-order: { node, depth, start, end, delta, waker, runs, pf, ps }.
	 * A kept frame narrower than `cut` samples (a pixel) is not walked
	 * into: it is marked `rest` and expand() walks it later.  Its width is
	 * known without the walk (its subtree's total), so everything after it
	 * lands where the full walk puts it (exactly so for integer counts). */
	/* mirrors render/layout.c:build_layout(), render/layout.c:walk_trie() */
	function flow(D, z, useBase, minw, cut) {
		const cnt = useBase ? D.base : D.self;
		/* flow() marks a frame above a "--" frame (not the root) a waker */
		let waker = false;
		for (let p = D.parent[z]; p > 0; p = D.parent[p]) {
			if (D.names[D.name[p]] === '--') waker = true;
		}
		const zr = { node: z, depth: D.depth[z], start: 0, end: 0, delta: 0, waker: waker,
			runs: [], pf: 0, ps: 0, sub: true };
		let time = 0;
		if (own(D, z)) {
			zr.delta = D.diff ? D.self[z] - D.base[z] : 0;
			time += cnt[z];
		}
		const out = [zr];
		walk(D, useBase, minw, cut, zr, time, out);
		return out;
	}

	/* Walks the subtree lines of frame r (opened at r.start; its own line
	 * already counted: `time`), appending kept frames to out. */
	/* mirrors render/layout.c:walk_trie(), render/layout.c:skip_narrow(), render/layout.c:keep_frame() */
	function walk(D, useBase, minw, cut, r0, time, out) {
		const cnt = useBase ? D.base : D.self, tot = useBase ? D.btotal : D.total;
		const st = [{ p: r0.node, r: r0, e: entries(D, r0.node), k: 0 }];
		while (st.length) {
			const top = st[st.length - 1];
			const e = top.e;
			if (top.k >= e.length) {
				top.r.end = time;
				st.pop();
				continue;
			}
			const x = e[top.k], isSelf = x < 0, c = isSelf ? -1 - x : x;
			const merged = isSelf && top.k + 1 < e.length && e[top.k + 1] === c;
			top.k += merged ? 2 : 1;
			const hasSub = !isSelf || merged;
			const width = (isSelf ? cnt[c] : 0) + (hasSub ? tot[c] - cnt[c] : 0);
			const r = top.r;
			if (width < minw) {
				/* the frames under a pruned child are counted when its
				 * box's tooltip asks (prunedFrames): counting them here
				 * sorted every node below it */
				r.pf += 1;
				if (hasSub) (r.pfu || (r.pfu = [])).push(c);
				r.ps += width;
				const runs = r.runs;
				if (runs.length && runs[runs.length - 1] === time) runs[runs.length - 1] = time + width;
				else runs.push(time, time + width);
				time += width;
				continue;
			}
			const f = {
				node: c, depth: r.depth + 1, start: time, end: 0,
				delta: isSelf && D.diff ? D.self[c] - D.base[c] : 0,
				waker: r.waker || (r.depth + 1 > 1 && D.names[D.name[top.p]] === '--'),
				runs: [], pf: 0, ps: 0, sub: hasSub,
			};
			out.push(f);
			if (isSelf) time += cnt[c];
			if (hasSub && width < cut) {
				f.rest = time;   /* walk later, from here */
				time = f.end = f.start + width;
			} else if (hasSub) {
				st.push({ p: c, r: f, e: entries(D, c), k: 0 });
			} else {
				f.end = time;
			}
		}
	}

	/* How many frames frame f's pruned box stands for: its pruned
	 * children and every frame flow() would open under them. */
	function prunedFrames(D, f) {
		let n = f.pf;
		for (const c of f.pfu || []) n += framesUnder(D, c);
		return n;
	}

	/* The frames under a frame flow() left for later. */
	function expand(D, useBase, minw, f) {
		const out = [], end = f.end;
		walk(D, useBase, minw, 0, f, f.rest, out);
		f.end = end;
		f.rest = undefined;
		return out;
	}
