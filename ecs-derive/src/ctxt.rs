//! Collects every error found in the input, so the user sees them all at once
//! (serde_derive's `Ctxt`).

use quote::ToTokens;
use std::cell::RefCell;
use std::fmt::Display;

/// An error sink threaded through parsing and validation.
///
/// Dropping it without calling [`Ctxt::check`] is a bug in this crate and
/// panics, so no error is ever lost.
pub struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// Records an error spanned on `tokens` (all of them, first to last).
    pub fn error_spanned_by<A: ToTokens, T: Display>(&self, tokens: A, message: T) {
        self.syn_error(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Records an error spanned on one span.
    pub fn error_at<T: Display>(&self, span: proc_macro2::Span, message: T) {
        self.syn_error(syn::Error::new(span, message));
    }

    /// Records an error produced by `syn`.
    pub fn syn_error(&self, error: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt used after check")
            .push(error);
    }

    /// Consumes the context: `Err` with every error combined, if any.
    pub fn check(self) -> Result<(), syn::Error> {
        let mut errors = self
            .errors
            .borrow_mut()
            .take()
            .expect("Ctxt checked twice")
            .into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for rest in errors {
            combined.combine(rest);
        }
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("forgot to check for errors");
        }
    }
}
