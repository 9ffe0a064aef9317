notice(* => {})
