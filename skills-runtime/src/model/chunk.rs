//! The chunk value: a `<chunk>` block of a body, served on its own by id. The syntax is read by
//! [`crate::text::chunks`].

use std::borrow::Cow;

type Str = Cow<'static, str>;

/// A `<chunk id="..." description="...">` block of a body: left out of the body as served,
/// loaded on its own by id.
#[derive(Debug, Clone)]
pub struct Chunk {
    id: Str,
    description: Str,
    /// Byte range of the whole block (tag lines included) in the body.
    pub(super) block: (u32, u32),
    /// Byte range of the text between the tag lines.
    pub(super) content: (u32, u32),
}

impl Chunk {
    /// A chunk of an embedded body (`__private::chunk` for generated code): byte ranges into
    /// the body.
    pub(crate) const fn new(
        id: &'static str,
        description: &'static str,
        block: (u32, u32),
        content: (u32, u32),
    ) -> Self {
        Chunk {
            id: Cow::Borrowed(id),
            description: Cow::Borrowed(description),
            block,
            content,
        }
    }

    /// The chunk's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// What the chunk holds, for the list shown after the body.
    pub fn description(&self) -> &str {
        &self.description
    }

    pub(super) fn range(r: (u32, u32)) -> std::ops::Range<usize> {
        r.0 as usize..r.1 as usize
    }
}

impl Chunk {
    pub(crate) fn from_span(span: crate::text::chunks::ChunkSpan) -> Option<Chunk> {
        let n = |v: usize| u32::try_from(v).ok();
        Some(Chunk {
            block: (n(span.start)?, n(span.end)?),
            content: (n(span.content_start)?, n(span.content_end)?),
            id: Cow::Owned(span.id),
            description: Cow::Owned(span.description),
        })
    }
}
