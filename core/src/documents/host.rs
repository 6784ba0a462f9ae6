//! `phux host … --json`: the host registry documents (§4.10).

use serde::{Deserialize, Serialize};

use crate::hosts::{HostEntry, HostRole};

pub const HOST_SCHEMA_VERSION: u32 = 1;

/// `host ls --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostListJson {
    pub schema_version: u32,
    pub hosts: Vec<HostEntry>,
}

/// `host add --json` and `host enroll --json`: the entry as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostJson {
    pub schema_version: u32,
    pub host: HostEntry,
}

/// `host rm --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostRemovedJson {
    pub schema_version: u32,
    pub removed: RemovedHost,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemovedHost {
    pub name: String,
    pub role: HostRole,
}

impl HostListJson {
    pub fn new(hosts: Vec<HostEntry>) -> Self {
        HostListJson {
            schema_version: HOST_SCHEMA_VERSION,
            hosts,
        }
    }
}

impl HostJson {
    pub fn new(host: HostEntry) -> Self {
        HostJson {
            schema_version: HOST_SCHEMA_VERSION,
            host,
        }
    }
}

impl HostRemovedJson {
    pub fn new(name: String, role: HostRole) -> Self {
        HostRemovedJson {
            schema_version: HOST_SCHEMA_VERSION,
            removed: RemovedHost { name, role },
        }
    }
}
