use fsnative::{GrepRequest, IndexOptions, Sandbox};
fn main() {
    let root = std::env::args().nth(1).unwrap();
    let pat = std::env::args().nth(2).unwrap();
    let sb = Sandbox::with_index([&root], IndexOptions::default()).unwrap();
    sb.wait_for_index(None);
    let mut req = GrepRequest::new(&pat);
    req.fixed_strings = true;
    req.limit = Some(100);
    let mut t = vec![];
    for _ in 0..2000 {
        let s = std::time::Instant::now();
        let r = sb.grep(&req).unwrap();
        t.push(s.elapsed().as_secs_f64() * 1e3);
        assert_eq!(r.total_matches, 0);
    }
    t.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("{pat}: median {:.4} ms", t[t.len() / 2]);
}
