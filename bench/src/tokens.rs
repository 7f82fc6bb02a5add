//! Token economy of a skill set, counted with a real BPE tokenizer (o200k, from `tiktoken-rs`,
//! which ships its vocabulary: no network).
//!
//! - **L1 overhead per skill**: tokens of the listing minus the tokens of every name and
//!   description on their own, divided by the number of skills: what the format itself costs.
//! - **First turn**: what the model sees before it has done anything. Progressive is the
//!   system-prompt text of [`Disclosure::Progressive`] plus the tool definitions (OpenAI
//!   function format, the skill names as an enum); Eager (all) is every body injected as
//!   [`Disclosure::Hybrid`] with every skill named, the baseline progressive disclosure is
//!   measured against; Eager (matched) is [`Disclosure::Eager`] with the default matcher (at
//!   most 3 bodies), averaged over prompts made of sample skills' descriptions.

use skills_embed::listing::{Entry, ListingFormat, ListingOptions, render};
use skills_embed::tools::Disclosure;
use skills_embed::tools::Session;
use skills_embed::tools::Settings;
use skills_embed::{SkillSet, tools::Tools};
use tiktoken_rs::CoreBPE;

/// Token counts of one set.
#[derive(Debug, Clone, Default)]
pub struct TokenReport {
    /// Skills.
    pub skills: usize,
    /// Tokens of every name and description, each counted on its own.
    pub names_and_descriptions: usize,
    /// Tokens of the default (Markdown) listing.
    pub l1_markdown: usize,
    /// Tokens of the XML listing (no location: embedded skills have no path).
    pub l1_xml: usize,
    /// Tokens of the reference XML with an absolute `<location>` per skill.
    pub l1_xml_located: usize,
    /// Progressive first turn: system prompt plus tool definitions.
    pub progressive: usize,
    /// Of which tool definitions.
    pub tool_definitions: usize,
    /// Progressive first turn with the reference XML listing (with locations) instead.
    pub progressive_reference: usize,
    /// Every body injected.
    pub eager_all: usize,
    /// Eager with the keyword matcher, averaged over sample prompts.
    pub eager_matched: f64,
}

impl TokenReport {
    /// Markdown listing tokens per skill beyond the names and descriptions.
    pub fn markdown_overhead(&self) -> f64 {
        per(self.l1_markdown, self.names_and_descriptions, self.skills)
    }

    /// XML listing tokens per skill beyond the names and descriptions.
    pub fn xml_overhead(&self) -> f64 {
        per(self.l1_xml, self.names_and_descriptions, self.skills)
    }

    /// Reference XML (with locations) tokens per skill beyond the names and descriptions.
    pub fn xml_located_overhead(&self) -> f64 {
        per(
            self.l1_xml_located,
            self.names_and_descriptions,
            self.skills,
        )
    }

    /// Saving of the progressive first turn over eager (all), as a fraction.
    pub fn saving(&self) -> f64 {
        1.0 - self.progressive as f64 / self.eager_all.max(1) as f64
    }

    /// Saving of the reference progressive first turn over eager (all), as a fraction.
    pub fn saving_reference(&self) -> f64 {
        1.0 - self.progressive_reference as f64 / self.eager_all.max(1) as f64
    }
}

fn per(total: usize, base: usize, n: usize) -> f64 {
    (total as f64 - base as f64) / n.max(1) as f64
}

/// Counts the tokens of `text`.
pub fn count(bpe: &CoreBPE, text: &str) -> usize {
    bpe.encode_ordinary(text).len()
}

/// Measures a set.
pub fn measure(bpe: &CoreBPE, set: &SkillSet) -> TokenReport {
    let skills = set.skills();
    let mut r = TokenReport {
        skills: skills.len(),
        ..TokenReport::default()
    };
    r.names_and_descriptions = skills
        .iter()
        .map(|s| count(bpe, s.name()) + count(bpe, s.description()))
        .sum();
    let entries: Vec<Entry<'_>> = skills
        .iter()
        .map(|s| Entry {
            name: s.name(),
            description: s.description(),
            ..Entry::default()
        })
        .collect();
    let listing = |format: ListingFormat, entries: &[Entry<'_>]| {
        render(
            entries,
            &ListingOptions {
                format,
                ..ListingOptions::default()
            },
        )
    };
    r.l1_markdown = count(bpe, &listing(ListingFormat::Markdown, &entries));
    r.l1_xml = count(bpe, &listing(ListingFormat::Xml, &entries));
    let locations: Vec<String> = skills
        .iter()
        .map(|s| format!("/home/user/.agents/skills/{}/SKILL.md", s.name()))
        .collect();
    let located: Vec<Entry<'_>> = entries
        .iter()
        .zip(&locations)
        .map(|(e, l)| Entry {
            location: Some(l),
            ..e.clone()
        })
        .collect();
    let xml_located = listing(ListingFormat::Xml, &located);
    r.l1_xml_located = count(bpe, &xml_located);

    let tools = Tools::new(set.clone(), Settings::default());
    let definitions: Vec<serde_json::Value> =
        tools.definitions().iter().map(|d| d.to_openai()).collect();
    let definitions = serde_json::to_string(&definitions).unwrap_or_default();
    r.tool_definitions = count(bpe, &definitions);
    let progressive = Session::new(Tools::new(set.clone(), Settings::default()))
        .system_prompt(&Disclosure::Progressive, "");
    r.progressive = count(bpe, &progressive) + r.tool_definitions;
    // The same prompt with the reference listing in place of the Markdown one.
    let markdown = listing(ListingFormat::Markdown, &entries);
    let reference = progressive.replacen(&markdown, &xml_located, 1);
    r.progressive_reference = count(bpe, &reference) + r.tool_definitions;

    let all = Disclosure::Hybrid {
        eager: skills.iter().map(|s| s.name().to_owned()).collect(),
    };
    r.eager_all = count(
        bpe,
        &Session::new(Tools::new(set.clone(), Settings::default())).system_prompt(&all, ""),
    );

    let samples: Vec<&str> = skills
        .iter()
        .step_by((skills.len() / 20).max(1))
        .map(|s| s.description())
        .collect();
    let eager = Disclosure::Eager {
        max_skills: 3,
        min_score: 2,
    };
    let total: usize = samples
        .iter()
        .map(|prompt| {
            count(
                bpe,
                &Session::new(Tools::new(set.clone(), Settings::default()))
                    .system_prompt(&eager, prompt),
            )
        })
        .sum();
    r.eager_matched = total as f64 / samples.len().max(1) as f64;
    r
}
