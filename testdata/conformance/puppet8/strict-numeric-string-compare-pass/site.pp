if "10" == "10" and Integer("12") + 1 == 13 {
  notify { "ok": }
}
