//! A grid's focus, keys, typing and paste: one listener of each kind for all its cells.

use super::{Cells, Grad};
use leptos::prelude::*;
use rowflow_core::tensor::unravel;
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::JsCast;

/// One of the grid's listeners: `handle` with the grid's keys, for an event of any type.
pub(super) fn listen<E: Into<web_sys::Event>>(
    keys: &Rc<Keys>,
    handle: fn(&Keys, web_sys::Event),
) -> impl FnMut(E) + 'static {
    let keys = keys.clone();
    move |ev: E| handle(&keys, ev.into())
}

/// The cell an event comes from (its `data-i`) and its element: a grid listens once for all its
/// cells, so a cell costs its DOM and bindings, not five listeners of its own.
fn cell_of(ev: &web_sys::Event) -> Option<(usize, web_sys::HtmlElement)> {
    let el = ev.target()?.dyn_into::<web_sys::HtmlElement>().ok()?;
    let i = el.get_attribute("data-i")?.parse().ok()?;
    Some((i, el))
}

/// Focus, keys, typing and paste for all the cells of one grid, shared by its listeners.
pub(super) struct Keys {
    pub(super) c: Cells,
    pub(super) shape: Vec<usize>,
    pub(super) table: NodeRef<leptos::html::Div>,
    pub(super) drafts: RwSignal<HashMap<usize, (String, String)>>,
    pub(super) focused: RwSignal<Option<usize>>,
}

impl Keys {
    /// Every digit of cell `i`.
    fn full(&self, i: usize) -> String {
        self.c.data.try_with_untracked(|d| d.text(i, true)).unwrap_or_default()
    }

    pub(super) fn focus(&self, ev: web_sys::Event) {
        let Some((i, el)) = cell_of(&ev) else { return };
        // A number field shows every digit at once, so typing right after focusing replaces them.
        if let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() {
            if self.drafts.with_untracked(|d| !d.contains_key(&i)) {
                input.set_value(&self.full(i));
                input.select();
            }
        }
        self.focused.set(Some(i));
        if self.c.active.get_untracked() != i {
            self.c.active.set(i);
        }
        if let Some(cb) = self.c.on_focus {
            cb.run(unravel(i, &self.shape));
        }
        self.grad_focus(i);
    }

    /// Cell `i`'s gradient, when it is on show, for the sum that makes it.
    fn grad_focus(&self, i: usize) {
        let numel = self.shape.iter().product::<usize>();
        let Some(Grad { data, on_focus: Some(cb), .. }) = &self.c.grad else { return };
        if data.with_untracked(|d| d.as_ref().is_some_and(|d| d.numel() == numel)) {
            cb.run(unravel(i, &self.shape));
        }
    }

    /// A gradient's number clicked (a typed cell's, whose input the click does not focus).
    pub(super) fn click(&self, ev: web_sys::Event) {
        let g = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest(".g").ok().flatten());
        if let Some(i) = g.and_then(|g| g.get_attribute("data-g")?.parse().ok()) {
            self.grad_focus(i);
        }
    }

    pub(super) fn blur(&self, ev: web_sys::Event) {
        // Leaving a scene blurs its focused cell after the grid is gone: `try_`.
        if cell_of(&ev).is_some_and(|(i, _)| self.focused.try_get_untracked() == Some(Some(i))) {
            self.focused.set(None);
        }
    }

    pub(super) fn change(&self, ev: web_sys::Event) {
        let Some((i, el)) = cell_of(&ev) else { return };
        if let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() {
            self.commit(i, input.value());
        }
    }

    /// Types `value` into cell `i`: a refused value stays in the cell as a draft with the reason.
    fn commit(&self, i: usize, value: String) {
        let drafts = self.drafts;
        // `try_run`: leaving the page with a cell still being typed in blurs it, and so commits
        // it, after the scene it belongs to is gone; that text has nowhere to go.
        match self.c.on_edit.and_then(|cb| cb.try_run((i, value.clone()))) {
            // Every cell of the grid reads the drafts: touch them only when this cell had one.
            Some(Ok(())) if drafts.with_untracked(|d| d.contains_key(&i)) => drafts.update(|d| {
                d.remove(&i);
            }),
            Some(Ok(())) => {}
            Some(Err(message)) => drafts.update(|d| {
                d.insert(i, (value, message));
            }),
            None => {}
        }
    }

    /// Arrow keys and Enter move like a spreadsheet; `at_start`/`at_end`: whether the caret
    /// allows leaving the cell that way.
    fn step(&self, i: usize, key: &str, at_start: bool, at_end: bool) -> Option<usize> {
        let cols = self.c.layout(&self.shape).1;
        let numel: usize = self.shape.iter().product();
        match key {
            "ArrowUp" => i.checked_sub(cols),
            "ArrowDown" | "Enter" => Some(i + cols).filter(|&j| j < numel),
            "ArrowLeft" if at_start => i.checked_sub(1),
            "ArrowRight" if at_end => Some(i + 1).filter(|&j| j < numel),
            "Home" if at_start => Some(i - i % cols),
            "End" if at_end => Some(i - i % cols + cols - 1),
            _ => None,
        }
    }

    fn move_to(table: NodeRef<leptos::html::Div>, j: usize) {
        let el = table.get_untracked().and_then(|t| t.query_selector(&format!("[data-i=\"{j}\"]")).ok().flatten());
        if let Some(el) = el.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    }

    pub(super) fn keydown(&self, ev: web_sys::Event) {
        let (Some((i, el)), Some(ev)) = (cell_of(&ev), ev.dyn_ref::<web_sys::KeyboardEvent>()) else { return };
        let key = ev.key();
        let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() else {
            if let Some(j) = self.step(i, &key, true, true) {
                ev.prevent_default();
                Self::move_to(self.table, j);
            }
            return;
        };
        let (len, start, end) = (input.value().chars().count() as u32, input.selection_start(), input.selection_end());
        let (at_start, at_end) = (start == Ok(Some(0)) && end == Ok(Some(0)), start == Ok(Some(len)));
        match key.as_str() {
            "Escape" => {
                self.drafts.update(|d| {
                    d.remove(&i);
                });
                input.set_value(&self.full(i));
                return;
            }
            "Enter" => {
                self.commit(i, input.value());
                // The new numbers first, the caret a frame later: focusing a text field costs
                // Chromium more than the whole recompute. Not if the learner has moved on.
                if let Some(j) = self.step(i, &key, true, at_end) {
                    ev.prevent_default();
                    let (table, input) = (self.table, input.clone());
                    request_animation_frame(move || {
                        set_timeout(
                            move || {
                                if document().active_element().is_some_and(|a| a == **input) {
                                    Self::move_to(table, j);
                                }
                            },
                            std::time::Duration::ZERO,
                        )
                    });
                }
                return;
            }
            _ => {}
        }
        if let Some(j) = self.step(i, &key, at_start, at_end) {
            ev.prevent_default();
            Self::move_to(self.table, j);
        }
    }

    pub(super) fn paste(&self, ev: web_sys::Event) {
        let (Some(cb), Some((i, _))) = (self.c.on_paste, cell_of(&ev)) else { return };
        let Some(ev) = ev.dyn_ref::<web_sys::ClipboardEvent>() else { return };
        let text = ev.clipboard_data().and_then(|d| d.get_data("text").ok()).unwrap_or_default();
        // One plain value is ordinary typing; a block goes to the scene whole.
        if !text.trim().contains(['\t', '\n', '[', ',', ' ']) {
            return;
        }
        ev.prevent_default();
        match cb.run((i, text.clone())) {
            Ok(()) => self.drafts.update(|d| {
                d.remove(&i);
            }),
            Err(message) => self.drafts.update(|d| {
                d.insert(i, (self.full(i), message));
            }),
        }
    }
}
