site::patch()
$patched = site::patch()
notify { "patched: ${patched =~ Runtime} ${site::shout('hello')}": }
