define known::thing {}
Known::Thing <<| |>>
Nosuch <<| tag == 'web' |>>
