//! The `skills!` macro. Use it through the `skills` crate, which documents it.

mod ast;
mod ctxt;
mod expand;
mod valid;

use proc_macro::TokenStream;

/// See the `skills` crate for the documentation.
#[proc_macro]
pub fn skills(input: TokenStream) -> TokenStream {
    match syn::parse::<ast::Input>(input) {
        Ok(input) => expand::expand(input).into(),
        Err(e) => e.to_compile_error().into(),
    }
}
