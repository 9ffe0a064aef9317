class app (
  $port = $fallback,
) {
  notify { "port=${port}": }
}
include app
