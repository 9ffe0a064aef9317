function mydata::by_uri(String $key, Hash $options, Puppet::LookupContext $context) {
  $uri = $options['uri']
  if $key == 'app::color' and $uri =~ /nodes\/web01$/ {
    "red from ${uri}"
  } elsif $key == 'app::size' and $uri =~ /os\/Debian$/ {
    "large from ${uri}"
  } elsif $key =~ /^app::/ and $uri =~ /common$/ {
    "${key} from ${uri}"
  } else {
    $context.not_found()
  }
}
