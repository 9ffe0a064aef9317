$a = lookup('no::such::key', String, 'first', 'fallback')
$b = lookup('another::key', { 'default_value' => ['d1'] })
notify { "a=${a} b=${b}": }
