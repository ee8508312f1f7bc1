//! The timing worker: a `Request` times both ways at real scale
//! (`rowflow_core::scene::one_hot::time_cases`), each `Report` posted as JSON as it goes; a
//! `Draw` draws a table, posted back as a `Float32Array`.

use rowflow_core::scene::one_hot::{time_cases, Draw, Report, Request};
use rowflow_worker::{post, post_moved, serve};

fn main() {
    serve(|scope, data| {
        let text = data.as_string().unwrap_or_default();
        if let Ok(draw) = serde_json::from_str::<Draw>(&text) {
            match draw.run() {
                Ok(table) => {
                    let array = js_sys::Float32Array::from(table.data());
                    post_moved(scope, &array, &array.buffer());
                }
                Err(why) => post(scope, &Report::Refused(why)),
            }
            return;
        }
        match serde_json::from_str::<Request>(&text) {
            Ok(request) => {
                let perf = scope.performance();
                let now = || perf.as_ref().map_or(0.0, |p| p.now());
                time_cases(&request, &now, &mut |report| post(scope, &report));
            }
            Err(e) => post(scope, &Report::Refused(format!("not a timing request: {e}"))),
        }
    });
}
