//! The `skills!` macro. Use it through the `skills-embed` crate, which documents it and passes it its own path.

mod ast;
mod ctxt;
mod expand;
mod valid;

use proc_macro::TokenStream;

/// See `skills_embed::skills!` for the documentation.
#[proc_macro]
pub fn skills(input: TokenStream) -> TokenStream {
    match syn::parse::<ast::Input>(input) {
        Ok(input) => expand::expand(input).into(),
        Err(e) => e.to_compile_error().into(),
    }
}
