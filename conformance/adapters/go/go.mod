module wowguid-adapter

go 1.19
