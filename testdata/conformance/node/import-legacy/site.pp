import 'nodes/*.pp'
node default {}
