//! The training worker: a `Request` (`rowflow_core::scene::word2vec::scale`) as JSON trains
//! word2vec at real scale, each `Report` posted as JSON as it goes, the trained table in the last.

use rowflow_core::scene::word2vec::scale::{train, Report, Request};
use rowflow_worker::{post, serve};

fn main() {
    serve(|scope, data| match serde_json::from_str::<Request>(&data.as_string().unwrap_or_default()) {
        Ok(request) => {
            let perf = scope.performance();
            let now = || perf.as_ref().map_or(0.0, |p| p.now() / 1000.0);
            train(&request, &now, &mut |report| post(scope, &report));
        }
        Err(e) => post(scope, &Report::Refused(format!("not a training request: {e}"))),
    });
}
