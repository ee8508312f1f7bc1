//! The parameters after a scene's route (`#/embedding?lesson=lookup&step=3&present`): what a
//! link asks of the scene. Each reader takes only its own, and rewrites the address without
//! firing `hashchange`, so the scene on show is not built again.

/// The route's parameters, in order: `present` alone is `("present", "")`.
pub fn params() -> Vec<(String, String)> {
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    let query = hash.split_once('?').map(|(_, q)| q).unwrap_or_default();
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// The value of parameter `key`.
pub fn param(key: &str) -> Option<String> {
    params().into_iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// The page's address up to its hash, and the route (`#/embedding`): what a link is built on.
pub fn base_and_route() -> (String, String) {
    let location = web_sys::window().map(|w| w.location());
    let href = location.as_ref().and_then(|l| l.href().ok()).unwrap_or_default();
    let hash = location.as_ref().and_then(|l| l.hash().ok()).unwrap_or_default();
    let base = href.split('#').next().unwrap_or_default().to_string();
    (base, hash.split('?').next().filter(|r| !r.is_empty()).unwrap_or("#/").to_string())
}

/// The address with parameters `keys` replaced by `set` (kept in place, new ones at the end),
/// others kept; `None` removes one.
pub fn replace(set: &[(&str, Option<String>)]) {
    rewrite(set, false);
}

/// As `replace`, as a new entry of the tab's history: browser Back comes back to the address
/// before (a lesson's step before), rebuilding the scene from it.
pub fn push(set: &[(&str, Option<String>)]) {
    rewrite(set, true);
}

fn rewrite(set: &[(&str, Option<String>)], push: bool) {
    let Some(window) = web_sys::window() else { return };
    let hash = window.location().hash().unwrap_or_default();
    let route = hash.split('?').next().unwrap_or_default().to_string();
    let mut params = params();
    for (key, value) in set {
        match (params.iter().position(|(k, _)| k == key), value) {
            (Some(i), Some(v)) => params[i].1 = v.clone(),
            (Some(i), None) => {
                params.remove(i);
            }
            (None, Some(v)) => params.push((key.to_string(), v.clone())),
            (None, None) => {}
        }
    }
    let query: Vec<String> =
        params.iter().map(|(k, v)| if v.is_empty() { k.clone() } else { format!("{k}={v}") }).collect();
    let url = if query.is_empty() { route } else { format!("{route}?{}", query.join("&")) };
    if let Ok(history) = window.history() {
        let _ = match push {
            true => history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url)),
            false => history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url)),
        };
    }
}
