//! Collects every error of one expansion so they are reported together, like serde_derive's
//! `internals/ctxt.rs`.

use std::fmt::Display;

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;

#[derive(Default)]
pub(crate) struct Ctxt {
    errors: Option<syn::Error>,
}

impl Ctxt {
    /// Records an error at a span.
    pub(crate) fn error_spanned_by<T: ToTokens, M: Display>(&mut self, tokens: T, message: M) {
        self.push(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Records an error at the macro's call site or another span.
    pub(crate) fn error_at<M: Display>(&mut self, span: Span, message: M) {
        self.push(syn::Error::new(span, message));
    }

    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.errors {
            Some(errors) => errors.combine(error),
            None => self.errors = Some(error),
        }
    }

    /// The combined error, if any.
    pub(crate) fn into_error(self) -> Option<syn::Error> {
        self.errors
    }

    /// Every recorded error as `compile_error!` invocations (empty when there are none).
    pub(crate) fn into_compile_errors(self) -> TokenStream {
        self.errors
            .map(|e| e.to_compile_error())
            .unwrap_or_default()
    }
}
