//! A skill whose scripts are Rust functions, run inside this binary: no interpreter, no files,
//! no shell. A scripted "model" loads the skill, then calls its scripts through the run tool.
//!
//! `skills!` embeds `examples/script_skills/` and registers three functions as the scripts of
//! the skill `invoice-totals`. When this file compiles, the macro checks that the skill exists
//! and that every `[...](script:NAME)` link in its SKILL.md names one of them; the compiler
//! checks each function's argument and result types. Then:
//!
//! 1. the run tool as OpenAI JSON: a closed enum of `skill/script` pairs, each script's
//!    arguments as JSON Schema (from the argument types' `JsonSchema`);
//! 2. the model loads the skill and runs `invoice_total`;
//! 3. wrong arguments, a script name that does not exist, and a script's own error, each
//!    answered with what was wrong and what to do;
//! 4. a script that panics: the panic is caught and reported, the agent goes on;
//! 5. an `ask` rule on `convert`: the run waits for the user, who approves it;
//! 6. the split style: one tool per script, its parameters the script's own arguments.
//!
//! ```text
//! cargo run --example scripts
//! ```

use schemars::JsonSchema;
use serde::Deserialize;
use skills_embed::policy::{Answer, Permissions};
use skills_embed::tools::{Session, Settings, ToolOutput, ToolStyle, Tools};

skills_embed::skills!(
    "examples/script_skills",
    scripts = {
        "invoice-totals" => [invoice_total, split_evenly, async convert],
    },
);

/// Totals an invoice: each line's quantity times its unit price, then tax on the subtotal.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Invoice {
    /// The invoice's lines.
    lines: Vec<Line>,
    /// The tax rate in percent, e.g. 20.
    tax_percent: u32,
}

/// One line of an invoice.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Line {
    /// What was sold.
    description: String,
    /// How many.
    quantity: u32,
    /// The price of one, in cents.
    unit_cents: u64,
}

fn invoice_total(invoice: Invoice) -> Result<String, String> {
    let mut subtotal: u64 = 0;
    for line in &invoice.lines {
        let amount = u64::from(line.quantity)
            .checked_mul(line.unit_cents)
            .ok_or_else(|| format!("line {:?} is too large to total", line.description))?;
        subtotal = subtotal
            .checked_add(amount)
            .ok_or("the invoice is too large to total")?;
    }
    // Rounded half up to the cent.
    let tax = (u128::from(subtotal) * u128::from(invoice.tax_percent) + 50) / 100;
    let tax = u64::try_from(tax).map_err(|_| "the tax is too large")?;
    Ok(format!(
        "subtotal {} | tax {} ({}%) | total {}",
        cents(subtotal),
        cents(tax),
        invoice.tax_percent,
        cents(subtotal + tax)
    ))
}

/// Splits an amount between people; the first ones pay the leftover cents.
#[derive(Deserialize, JsonSchema)]
struct Split {
    /// The amount in cents.
    amount_cents: u64,
    /// How many people share it.
    people: u64,
}

fn split_evenly(split: Split) -> Result<String, String> {
    // A bug kept on purpose: no check for zero people, so `people: 0` panics. The run tool
    // catches it and tells the model; the agent goes on.
    let share = split.amount_cents / split.people;
    let leftover = split.amount_cents % split.people;
    Ok(format!(
        "{} each; {leftover} of them pay one cent more",
        cents(share)
    ))
}

/// Converts an amount between currencies at fixed rates (EUR, USD, GBP, JPY).
#[derive(Deserialize, JsonSchema)]
struct Convert {
    /// The amount in cents (or yen).
    amount_cents: u64,
    /// The currency of the amount.
    from: String,
    /// The currency wanted.
    to: String,
}

/// A rate lookup that could be a network call: `async`, and given up after the run's timeout.
async fn convert(args: Convert) -> Result<String, String> {
    let rate = |code: &str| match code {
        "EUR" => Ok(1.0),
        "USD" => Ok(1.08),
        "GBP" => Ok(0.86),
        "JPY" => Ok(161.0),
        other => Err(format!(
            "unknown currency {other:?}; the known ones are EUR, USD, GBP and JPY"
        )),
    };
    let value = args.amount_cents as f64 / rate(&args.from)? * rate(&args.to)?;
    Ok(format!("{:.0} {} in cents", value.round(), args.to))
}

fn cents(amount: u64) -> String {
    format!("{}.{:02}", amount / 100, amount % 100)
}

const RUN: &str = "run_skill_script";

fn main() {
    // A panicking script prints through the panic hook; the example shows the tool's answer.
    std::panic::set_hook(Box::new(|_| {}));

    heading("1. The run tool, as an OpenAI tool");
    let tools = Tools::new(&SKILLS, Settings::default());
    let run = tools
        .definitions()
        .into_iter()
        .find(|d| d.name == RUN)
        .expect("a visible skill with scripts gets the run tool");
    println!(
        "{}",
        serde_json::to_string_pretty(&run.to_openai()).unwrap()
    );

    heading("2. The model loads the skill, then totals an invoice");
    let mut session = Session::new(tools.clone());
    let body = session.handle("load_skill", r#"{"skill": "invoice-totals"}"#);
    println!(
        "load_skill -> {} characters of instructions",
        body.text.len()
    );
    call(
        &mut session,
        r#"{"script": "invoice-totals/invoice_total", "args": {"tax_percent": 20, "lines": [
            {"description": "Design review", "quantity": 3, "unit_cents": 45000},
            {"description": "Hosting (month)", "quantity": 1, "unit_cents": 1999}]}}"#,
    );

    heading("3. Mistakes, answered with what to do");
    call(
        &mut session,
        r#"{"script": "invoice-totals/invoice_total", "args": {"lines": [], "tax": 20}}"#,
    );
    call(
        &mut session,
        r#"{"script": "invoice-totals/invoice_totals", "args": {}}"#,
    );
    call(
        &mut session,
        r#"{"script": "invoice-totals/convert", "args": {"amount_cents": 1000, "from": "EUR", "to": "CHF"}}"#,
    );

    heading("4. A script that panics");
    call(
        &mut session,
        r#"{"script": "invoice-totals/split_evenly", "args": {"amount_cents": 10000, "people": 0}}"#,
    );
    call(
        &mut session,
        r#"{"script": "invoice-totals/split_evenly", "args": {"amount_cents": 10000, "people": 3}}"#,
    );

    heading("5. `ask invoice-totals/convert`: the run waits for the user");
    let asking = Tools::new(
        &SKILLS,
        Settings {
            permissions: Permissions::new().ask("invoice-totals/convert"),
            ..Settings::default()
        },
    );
    let mut session = Session::new(asking);
    let waiting = call(
        &mut session,
        r#"{"script": "invoice-totals/convert", "args": {"amount_cents": 1000, "from": "EUR", "to": "USD"}}"#,
    );
    let subject = waiting.approval.expect("an ask rule waits for the user");
    println!("The host asks the user about {subject:?}; the user answers \"always\".");
    let ran = session
        .answer(&subject, Answer::Always)
        .expect("a pending run");
    println!("<- {}", ran.text);
    for event in session.drain_events() {
        println!("event: {event}");
    }

    heading("6. The split style: one tool per script");
    let split = Tools::new(
        &SKILLS,
        Settings {
            style: ToolStyle::Split,
            ..Settings::default()
        },
    );
    for definition in split.definitions() {
        println!("{:<34} {}", definition.name, definition.json_schema());
    }
    let out = split.handle(
        "invoice-totals__split_evenly",
        r#"{"amount_cents": 1000, "people": 4}"#,
    );
    println!("invoice-totals__split_evenly -> {}", out.text);
}

/// Sends one run-tool call and prints the answer.
fn call(session: &mut Session, arguments: &str) -> ToolOutput {
    let compact: serde_json::Value = serde_json::from_str(arguments).unwrap();
    println!("\n{RUN} {compact}");
    let out = session.handle(RUN, arguments);
    let mark = if out.is_error { "error" } else { "ok" };
    println!("<- [{mark}] {}", out.text);
    out
}

fn heading(title: &str) {
    println!("\n=== {title} ===");
}
