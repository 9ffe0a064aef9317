node 'web01.example.com' {}
node 'web01.example.com' {}
node default {}
