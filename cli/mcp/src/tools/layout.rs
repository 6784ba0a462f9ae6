//! Tools that rearrange panes: `phux_insert_pane`, `phux_move_pane`, `phux_swap_pane`.

use phux_client::failure::Failure;
use phux_client::layout::{edit, SpatialRequest};
use phux_client::target;
use phux_client::values::connect;
use phux_core::split::DEFAULT_RATIO;
use serde::Deserialize;
use serde_json::Value;

use crate::schema::{choice, number, object, string};
use crate::tools::create::split;
use crate::tools::{to_value, Call, Document, Tool};

fn placement(mut properties: Vec<(&'static str, Value)>) -> Vec<(&'static str, Value)> {
    properties.push((
        "split",
        choice(
            "Stacked (horizontal) or side by side (vertical) [default: horizontal]",
            &["horizontal", "vertical"],
        ),
    ));
    properties.push((
        "ratio",
        number(
            "The share the target keeps, between 0 and 1 exclusive [default: 0.5]",
            0.0,
            1.0,
        ),
    ));
    properties
}

pub fn tools() -> Vec<Tool> {
    vec![
        Tool {
            name: "phux_insert_pane",
            description: "Put a pane (detached, or elsewhere in the session) next to a target pane. Returns the SpatialEditJson {schema_version, operation, session_id, target_terminal_id, new_terminal_id, direction, ratio}.",
            schema: || {
                object(
                    &["target", "new_pane"],
                    placement(vec![
                        ("target", string("The pane to split")),
                        ("new_pane", string("The pane to place")),
                    ]),
                )
            },
            call: insert,
        },
        Tool {
            name: "phux_move_pane",
            description: "Move a pane next to a target pane, across sessions too (it keeps its process, history and id). Returns the SpatialEditJson.",
            schema: || {
                object(
                    &["source", "target"],
                    placement(vec![
                        ("source", string("The pane to move")),
                        ("target", string("The pane to put it beside")),
                    ]),
                )
            },
            call: move_pane,
        },
        Tool {
            name: "phux_swap_pane",
            description: "Exchange the places of two panes. Returns the SpatialEditJson {..., first_terminal_id, second_terminal_id}.",
            schema: || {
                object(
                    &["first", "second"],
                    vec![
                        ("first", string("One pane")),
                        ("second", string("The other")),
                    ],
                )
            },
            call: swap,
        },
    ]
}

#[derive(Deserialize)]
struct InsertArgs {
    target: String,
    new_pane: String,
    split: Option<String>,
    ratio: Option<f64>,
}

fn insert(call: &Call) -> Result<Document, Failure> {
    let args: InsertArgs = call.parse()?;
    send(
        call,
        SpatialRequest::Insert {
            target: target::parse(&args.target)?,
            new_pane: target::parse(&args.new_pane)?,
            split: split(args.split.as_deref()),
            ratio: args.ratio.unwrap_or(DEFAULT_RATIO),
        },
    )
}

#[derive(Deserialize)]
struct MoveArgs {
    source: String,
    target: String,
    split: Option<String>,
    ratio: Option<f64>,
}

fn move_pane(call: &Call) -> Result<Document, Failure> {
    let args: MoveArgs = call.parse()?;
    send(
        call,
        SpatialRequest::Move {
            source: target::parse(&args.source)?,
            target: target::parse(&args.target)?,
            split: split(args.split.as_deref()),
            ratio: args.ratio.unwrap_or(DEFAULT_RATIO),
        },
    )
}

#[derive(Deserialize)]
struct SwapArgs {
    first: String,
    second: String,
}

fn swap(call: &Call) -> Result<Document, Failure> {
    let args: SwapArgs = call.parse()?;
    send(
        call,
        SpatialRequest::Swap {
            first: target::parse(&args.first)?,
            second: target::parse(&args.second)?,
        },
    )
}

/// As `swap-pane`'s `send_edit`: the offline checks, then the edit.
fn send(call: &Call, request: SpatialRequest) -> Result<Document, Failure> {
    request.check_offline()?;
    let mut client = connect(&call.context)?;
    let document =
        edit(&mut client, request).map_err(|e| Failure::from(e).partial_view_exits_1())?;
    to_value(&document)
}
