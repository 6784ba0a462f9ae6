//! `config agents` (§4.6): each `[[agents]]` a plugin declares, merged with the live
//! `phux.agent/v1` records when a server answers. A record matches a declaration when its kind
//! (as a slug), else its lowercased name, equals the declared id; when several panes match,
//! the most attention-worthy one is reported.

use phux_core::agents::{AgentState, Attention};
use phux_core::config::manifest::AgentDecl;
use phux_core::documents::{
    ConfiguredAgent, ConfiguredAgentsJson, DeclaredBaseline, RuntimeBinding,
    CONFIGURED_AGENTS_SCHEMA_VERSION,
};
use phux_core::wire::AgentPaneReport;

use crate::failure::Failure;
use crate::registry::Plugin;
use crate::Context;
use crate::{agents, Client};

/// The ConfiguredAgentsJson document of the registered plugins (the `phux_config_agents`
/// tool's result too).
pub fn document(context: &Context) -> Result<ConfiguredAgentsJson, Failure> {
    Ok(collect(&crate::registry::registered()?, context))
}

/// The document: declarations from `plugins`, live records from the server at `context`'s
/// socket when one answers (never starting one).
pub fn collect(plugins: &[Plugin], context: &Context) -> ConfiguredAgentsJson {
    let reports = Client::connect(&context.socket)
        .ok()
        .and_then(|mut client| agents::inspect(&mut client, Vec::new()).ok());
    let live = reports.is_some();
    let reports = reports.unwrap_or_default();
    let bindings: Vec<RuntimeBinding> = reports.iter().filter_map(binding).collect();
    let mut rows = Vec::new();
    for plugin in plugins {
        for decl in &plugin.valid.manifest.agents {
            rows.push(row(plugin, decl, &bindings));
        }
    }
    ConfiguredAgentsJson {
        schema_version: CONFIGURED_AGENTS_SCHEMA_VERSION,
        live,
        agents: rows,
    }
}

fn row(plugin: &Plugin, decl: &AgentDecl, bindings: &[RuntimeBinding]) -> ConfiguredAgent {
    let id = decl.id.clone().unwrap_or_default();
    let declared_state = decl
        .state
        .as_deref()
        .and_then(parse_state)
        .unwrap_or(AgentState::Unknown);
    let declared_attention = decl
        .attention
        .as_deref()
        .and_then(parse_attention)
        .unwrap_or_else(|| declared_state.derived_attention());
    let declared = DeclaredBaseline {
        state: declared_state.as_str().into(),
        attention: declared_attention.as_str().into(),
    };
    let runtime = bindings
        .iter()
        .filter(|b| binding_id(b) == id)
        .max_by_key(|b| parse_attention(&b.attention).map_or(0, rank))
        .cloned();
    let (state, attention, source) = match &runtime {
        Some(r) => (r.state.clone(), r.attention.clone(), "runtime"),
        None => (
            declared.state.clone(),
            declared.attention.clone(),
            "manifest",
        ),
    };
    ConfiguredAgent {
        plugin_id: plugin.id().to_string(),
        plugin_enabled: plugin.entry.enabled,
        id,
        label: decl.label.clone(),
        description: decl.description.clone(),
        state,
        attention,
        source: source.into(),
        declared,
        runtime,
        contexts: decl.contexts.clone().unwrap_or_default(),
    }
}

/// A pane's live record as the runtime half of a row; `None` without a record.
fn binding(report: &AgentPaneReport) -> Option<RuntimeBinding> {
    let record = report.record.as_ref()?;
    let asked = report.ask.is_some();
    // A declared state outranks the ask; an ask elevates a record that declares none.
    let state = if record.state_is_declared() {
        record.state.unwrap_or(AgentState::Unknown)
    } else if asked {
        AgentState::Blocked
    } else {
        report.state.unwrap_or(AgentState::Unknown)
    };
    Some(RuntimeBinding {
        terminal: report.pane.to_string(),
        name: record.name.clone(),
        kind: record.kind.clone(),
        state: state.as_str().into(),
        attention: record.effective_attention(Some(state)).as_str().into(),
        asked,
    })
}

/// The declaration id a record answers to: its kind as a slug, else its lowercased name.
fn binding_id(binding: &RuntimeBinding) -> String {
    let slug = |s: &str| s.trim().to_lowercase().replace(char::is_whitespace, "-");
    if binding.kind.trim().is_empty() {
        slug(&binding.name)
    } else {
        slug(&binding.kind)
    }
}

fn parse_state(text: &str) -> Option<AgentState> {
    AgentState::ALL.into_iter().find(|s| s.as_str() == text)
}

fn parse_attention(text: &str) -> Option<Attention> {
    Attention::ALL.into_iter().find(|a| a.as_str() == text)
}

fn rank(attention: Attention) -> u8 {
    match attention {
        Attention::None => 0,
        Attention::Low => 1,
        Attention::Normal => 2,
        Attention::High => 3,
    }
}
