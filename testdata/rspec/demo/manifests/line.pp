# One line of a file, as a file fragment of its own.
define demo::line (
  Pattern[/^\//] $path,
  String[1] $line,
) {
  file { "${path}.d/${title}":
    ensure  => file,
    content => "${line}\n",
  }
}
